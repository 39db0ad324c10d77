import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/types';
import { ApiError } from '../http/errors';
import { Messages } from '../../schema/messages';

/**
 * Each workspace's storage figure: the bytes of the uploads that count against it
 * (workspace_storage.bytes_used). It rises in the same transaction that records an upload and
 * falls in the one that forgets it, so it always equals the sum of the workspace's upload rows.
 */

type Db = Kysely<Database> | Transaction<Database>;

export const storageFull = () => new ApiError(413, Messages.storageFull, 'storage_full');

/**
 * Adds `bytes` to the workspace's figure unless that would pass `limit`: 413 storage_full then.
 * One statement (insert … on conflict … where), so two parallel uploads cannot both slip under.
 */
export async function reserveStorage(db: Db, teamId: number, bytes: number, limit: number): Promise<void> {
  if (bytes > limit) throw storageFull();
  const { rows } = await sql<{ bytes_used: string }>`
    insert into workspace_storage (team_id, bytes_used) values (${teamId}, ${bytes})
    on conflict (team_id) do update set bytes_used = workspace_storage.bytes_used + excluded.bytes_used
      where workspace_storage.bytes_used + excluded.bytes_used <= ${limit}
    returning bytes_used`.execute(db);
  if (rows.length === 0) throw storageFull();
}

/** Lowers the figure by `bytes` (never below 0: a figure cannot owe bytes). */
export async function releaseStorage(db: Db, teamId: number, bytes: number): Promise<void> {
  await sql`update workspace_storage set bytes_used = greatest(0, bytes_used - ${bytes}) where team_id = ${teamId}`.execute(db);
}

/** Bytes the workspace's uploads take (0 before its first upload). */
export async function storageUsed(db: Db, teamId: number): Promise<number> {
  const row = await db.selectFrom('workspace_storage').select('bytes_used').where('team_id', '=', teamId).executeTakeFirst();
  return Number(row?.bytes_used ?? 0);
}

/** Bytes used by all the workspaces on one subscription (its `usage.storage`). */
export async function storageUsedBySubscription(db: Db, subscriptionId: number): Promise<number> {
  const row = await db
    .selectFrom('workspace_storage')
    .innerJoin('teams', 'teams.id', 'workspace_storage.team_id')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('workspace_storage.bytes_used'), sql<string>`0`).as('n'))
    .where('teams.subscription_id', '=', subscriptionId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
