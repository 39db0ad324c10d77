import { sql } from 'kysely';
import type { Db } from './store';

/**
 * The change cursor without serialising writers (docs/decisions/0031-change-cursor.md).
 *
 * change_log.seq comes from a sequence when a writer appends a change, but writers commit in any
 * order, so a reader must not hand out a cursor above a number some writer still holds. Each
 * write transaction therefore registers a *floor* before it can take any number: it reads the
 * sequence's last handed-out value v and takes a shared advisory lock keyed (FLOOR_TAG, v). All of
 * its numbers are > v, and the lock is visible to every session at once and released only after
 * the commit is visible to new snapshots.
 *
 * A reader computes the horizon H = min(last handed-out value, lowest live floor) in a statement
 * of its own, before the snapshot it reads changes with: every number ≤ H belongs to a writer that
 * had finished (committed or rolled back) by then, so the reader's later snapshot sees all of them
 * and nothing ≤ H can appear afterwards. It returns changes ≤ H and a cursor ≤ H.
 */

/** High bits of the advisory lock key that mark a writer floor (the low 40 bits hold the floor). */
const FLOOR_TAG = 0x5a;
const FLOOR_BITS = 40;
/** Lock key class of the per-team lock of structural writes (see WriteScope). */
export const TEAM_LOCK_CLASS = 727301;

/** The sequence's last handed-out number (0 before the first). Non-transactional: always the latest. */
export const handedOut = sql<string>`(select case when is_called then last_value else last_value - 1 end from change_log_seq_seq)`;

/** SQL that registers this transaction's floor; must run before its first change is appended. */
export const registerFloor = sql`pg_advisory_xact_lock_shared((${sql.lit(FLOOR_TAG)}::bigint << ${sql.lit(FLOOR_BITS)}) | ${handedOut})`;

/** SQL for the team lock: shared for plain saves, exclusive for structural writes. */
export function teamLock(teamId: number, mode: 'shared' | 'exclusive') {
  return mode === 'shared' ? sql`pg_advisory_xact_lock_shared(${sql.lit(TEAM_LOCK_CLASS)}, ${teamId})` : sql`pg_advisory_xact_lock(${sql.lit(TEAM_LOCK_CLASS)}, ${teamId})`;
}

/**
 * On PGlite (one connection whose transactions never interleave) no writer is ever in flight
 * while a reader runs, so the horizon is simply the last handed-out number; reading pg_locks
 * there costs milliseconds for nothing. Probed once per database.
 */
const singleConnection = new WeakMap<object, Promise<boolean>>();

export function isSingleConnection(db: Db): Promise<boolean> {
  const key = db as object;
  let probe = singleConnection.get(key);
  if (!probe) {
    probe = sql<{ v: string }>`select version() as v`.execute(db).then((r) => /PGlite|wasm32/.test(r.rows[0]?.v ?? ''));
    singleConnection.set(key, probe);
  }
  return probe;
}

/**
 * The change horizon: every change number ≤ it is settled. Call it in its own statement, before
 * (not inside) the snapshot that reads the changes or the records the cursor goes with.
 */
export async function changeHorizon(db: Db): Promise<number> {
  if (await isSingleConnection(db)) {
    const { rows } = await sql<{ h: string }>`select ${handedOut} as h`.execute(db);
    return Number(rows[0]?.h ?? 0);
  }
  const { rows } = await sql<{ h: string }>`
    select least(${handedOut}, (
      select min(((classid::bigint << 32) | objid::bigint) & ${sql.lit(2 ** FLOOR_BITS - 1)}::bigint)
      from pg_locks
      where locktype = 'advisory' and objsubid = 1 and (classid::bigint >> ${sql.lit(FLOOR_BITS - 32)}) = ${sql.lit(FLOOR_TAG)}
        -- pg_locks spans the cluster: another database's writers (their own sequence) are not ours.
        and database = (select oid from pg_database where datname = current_database())
    )) as h`.execute(db);
  return Number(rows[0]?.h ?? 0);
}
