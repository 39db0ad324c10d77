import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/types';
import type { AppContext } from '../context';
import { ApiError } from '../http/errors';
import { Messages } from '../../schema/messages';
import { workspaceLimits } from './limits';

/**
 * Pro-only views (schema/views.ts PRO_VIEW_KINDS, decision 0260): allowed when the workspace's
 * effective limits (its subscription's, the free plan's once it ended, the top plan's with
 * BILLING=off) have `proViews`. The sync write path asks this when a view of a Pro kind is
 * saved; a refusal is 403 `pro_view` with a message that says what to do.
 */
export async function proViewsAllowed(ctx: Pick<AppContext, 'config'>, db: Kysely<Database> | Transaction<Database>, teamId: number, now: Date): Promise<boolean> {
  // A workspace on no subscription is not under a plan (see storage-limit.ts).
  const team = await db.selectFrom('teams').select('subscription_id').where('id', '=', teamId).executeTakeFirst();
  if (ctx.config.billing && team && team.subscription_id === null) return true;
  return (await workspaceLimits(ctx, db, teamId, now)).proViews;
}

export const proViewRefused = () => new ApiError(403, Messages.proViewNeedsUpgrade, 'pro_view');
