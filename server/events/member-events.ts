import type { Db } from '../sync/store';
import { appendEvents, registerEventFloor } from './outbox';

/**
 * Domain events of workspace membership (member.added when an invitation is accepted,
 * member.updated when the role changes, member.removed), appended in the transaction that
 * changes team_members. Workspace-level: no board, record_id is the member's user id.
 */
export async function appendMemberEvent(
  trx: Db,
  args: { teamId: number; type: 'member.added' | 'member.updated' | 'member.removed'; userId: number; actorId: number | null; before: Record<string, unknown> | null; after: Record<string, unknown> | null; now: Date },
): Promise<void> {
  await registerEventFloor(trx);
  await appendEvents(
    trx,
    [{ team_id: args.teamId, board_id: null, type: args.type, collection: null, record_id: String(args.userId), item_id: null, actor_id: args.actorId, before: args.before, after: args.after }],
    args.now,
  );
}
