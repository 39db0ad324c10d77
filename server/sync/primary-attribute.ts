import { sql } from 'kysely';
import { collections } from '../../schema/collections';
import { PRIMARY_ATTRIBUTE_NAME, primaryAttributeIdFor } from '../../schema/board-defaults';
import { removeWithChildren, storeSaved } from './operations';
import type { WriteScope } from './scope';
import type { WireRecord } from './store';

/**
 * Every board has a name (primary) attribute (issue #17 part 2, decision 0170). Clients create it
 * with the board; a board saved without one (an API caller, an older client, a batch whose
 * attribute failed) gets one at the end of the same write, so no board ever shows nameless rows.
 * It is the system's write, not the caller's: creating the board is what was authorised.
 */
export function requirePrimaryAttribute(scope: WriteScope, boardId: string): void {
  scope.atFinish(`primary:${boardId}`, () => ensurePrimaryAttribute(scope, boardId));
}

async function ensurePrimaryAttribute(scope: WriteScope, boardId: string): Promise<void> {
  // The board may have been rolled back with its request (a batch savepoint).
  const board = await scope.record('folder', boardId);
  if (!board || board.deleted_at !== null || board.team_id !== scope.team.id) return;
  // Attributes are structural (one primary per board holds under the exclusive lock); taking it
  // also writes what this request still held back, so the check below sees it.
  await scope.lock('exclusive');
  await scope.flushWrites();
  const found = await sql<{ id: string }>`
    select id from records
    where team_id = ${scope.team.id} and board_id = ${boardId} and collection = 'attribute'
      and deleted_at is null and data->>'kind' = 'primary'
    limit 1`.execute(scope.trx);
  if (found.rows.length > 0) return;
  const id = primaryAttributeIdFor(boardId);
  // A trashed one of the same id comes back rather than colliding with it.
  const stored = await scope.record('attribute', id);
  const now = scope.now.toISOString();
  const record = {
    id,
    team_id: scope.team.id,
    board_id: boardId,
    folder_id: boardId,
    name: PRIMARY_ATTRIBUTE_NAME,
    kind: 'primary',
    position: 0,
    hidden: false,
    settings: {},
    row_version: stored ? stored.row_version + 1 : 1,
    created_at: stored ? (stored.data.created_at as string) : now,
    updated_at: now,
    deleted_at: null,
  } as unknown as WireRecord;
  await storeSaved(scope, collections.attribute, record, stored);
}

/**
 * A client that brings its own name attribute for a board the server already gave one (an API
 * caller that saves the board, then its attribute, as two requests): the server's, never touched
 * since (row_version 1), steps aside, so the caller's is the board's one primary attribute.
 * Called after the save is authorised, before the one-primary-per-board check.
 */
export async function yieldServerPrimary(scope: WriteScope, record: Record<string, unknown>, existing: unknown): Promise<void> {
  if (existing || record.kind !== 'primary') return;
  const serverId = primaryAttributeIdFor(String(record.board_id));
  if (record.id === serverId) return;
  const stored = await scope.record('attribute', serverId);
  if (!stored || stored.deleted_at !== null || stored.row_version !== 1 || stored.team_id !== scope.team.id) return;
  await removeWithChildren(scope, stored);
}
