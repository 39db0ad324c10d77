import type { AppContext } from '../context';
import type { Db } from '../sync/store';
import { addDelivery } from './deliveries';
import { checkTargetUrl, outboundRule } from '../outbound';

/** A delivery to a bare URL (no hook): automations' "send to webhook URL" action. See index.ts. */
export interface UrlDelivery {
  url: string;
  secret?: string | null;
  event: string;
  teamId: number;
  boardId: string | null;
  data: unknown;
  /** Names this delivery for good: the same key enqueued twice sends once. */
  key: string;
}

/**
 * Enqueues the delivery in the caller's transaction (`opts.db`), sent and retried by the hooks'
 * deliver job. The URL is checked now (TargetRefused) and again when each attempt connects.
 */
export async function enqueueUrlDelivery(ctx: AppContext, input: UrlDelivery, opts: { db?: Db } = {}): Promise<{ deliveryId: string }> {
  const url = await checkTargetUrl(input.url, outboundRule(ctx.config, 'webhooks'));
  const now = ctx.now();
  const deliveryId = await addDelivery(
    opts.db ?? ctx.db,
    ctx.jobs,
    {
      hookId: null,
      url: url.toString(),
      secret: input.secret ?? null,
      teamId: input.teamId,
      eventId: null,
      dedupeKey: `url:${input.key}`,
      lane: null,
      body: { event: input.event, team_id: input.teamId, board_id: input.boardId, data: input.data, created_at: now.toISOString() },
    },
    now,
  );
  return { deliveryId };
}
