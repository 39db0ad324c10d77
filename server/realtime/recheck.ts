import type { AppContext } from '../context';
import { AccessChecker, grantFor } from './channel-access';
import { serversOf, subscriptionMatcher, type SubscriptionFilter } from './subscriptions';

/**
 * Asks the channel rules again for every matching subscription and ends the connections holding
 * one that is now refused (decision 0090). For changes that narrow access for some and not others
 * (a board made private, a password added, a role or workspace entries changed): those who keep
 * the right keep their connection, so one toggle does not make every follower reconnect at once.
 * Record events are judged per reader anyway; this ends what they may no longer follow at all.
 */
export async function recheckSubscriptions(ctx: AppContext, filter: SubscriptionFilter): Promise<number> {
  const servers = serversOf(ctx.db);
  if (servers.length === 0) return 0;
  const matches = subscriptionMatcher(filter);
  const checkers = new Map<number, AccessChecker>();
  let ended = 0;
  for (const server of servers) {
    const refused = new Set<string>();
    for (const { socketId, channel, holder } of server.subscriptions()) {
      if (!matches(channel, holder)) continue;
      if (holder) {
        let check = checkers.get(holder.userId);
        if (!check) checkers.set(holder.userId, (check = new AccessChecker(ctx, holder.userId)));
        if (await grantFor(check, holder.userId, channel)) continue;
      }
      refused.add(socketId);
    }
    if (refused.size) ended += server.endConnections(refused);
  }
  return ended;
}
