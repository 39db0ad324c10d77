import { sql } from 'kysely';
import type { AppContext } from '../context';
import { nonNegative } from '../env-numbers';
import type { Db } from './store';
import { isSingleConnection } from './cursor';

/**
 * Change log compaction (issue #31 part 6, decision 0351). Every write appends a change_log row;
 * /changes answers each record once, as its current copy, so of a record's rows on a board only
 * the latest one says anything a reader needs. The compactor walks the log in seq order, in
 * short batches, and removes
 * - every row with a later row of the same record on the same board (superseded: any cursor
 *   below the removed row is also below the later one, so every reader still hears of the record);
 * - a removal for good (a row whose record no longer exists) older than the retention period, and
 *   raises that board's horizon (change_log_horizons) to its number: a reader whose cursor is
 *   below the horizon may have missed it, and /changes tells it to load the board again.
 * A board's own removal row (a folder whose id is its board's) is kept: it is one row per board
 * ever removed, and it tells a reader that was away that the board itself is gone.
 *
 * Each batch is one statement, so one short transaction; its size follows the time the last one
 * took, aiming at BATCH_MS (the embedded PGlite serves every request on one connection), and the
 * event loop takes a turn between batches.
 */

export interface ChangeLogConfig {
  /** How long a removal for good stays in the log (CHANGE_LOG_RETENTION_DAYS, default 90). */
  retentionMs: number;
  /** How often a server compacts (CHANGE_LOG_COMPACT_MINUTES, default 60; 0 = never). */
  intervalMs: number;
}

const DAY = 86_400_000;
const MINUTE = 60_000;

export function loadChangeLogConfig(env: NodeJS.ProcessEnv = process.env): ChangeLogConfig {
  return { retentionMs: nonNegative(env, 'CHANGE_LOG_RETENTION_DAYS', 90) * DAY, intervalMs: nonNegative(env, 'CHANGE_LOG_COMPACT_MINUTES', 60) * MINUTE };
}

export const compactionTuning = { batchMs: 50, firstBatch: 500, minBatch: 50, maxBatch: 5000 };

/** Key of the advisory lock that lets one server of a cluster compact at a time. */
const COMPACT_LOCK = sql`pg_try_advisory_lock(727351, 1)`;
const COMPACT_UNLOCK = sql`pg_advisory_unlock(727351, 1)`;

export interface CompactionResult {
  /** Rows read (the whole log once). */
  read: number;
  superseded: number;
  tombstones: number;
  batches: number;
  /** The longest batch, in ms. */
  longestMs: number;
  /** PGlite only: the vacuum after a run that removed rows (one statement), in ms. */
  vacuumMs?: number;
  /** False when another server held the lock (nothing done). */
  ran: boolean;
}

export interface CompactOptions {
  retentionMs: number;
  now?: Date;
  /** Stop early (server closing). */
  stopped?: () => boolean;
}

/** One walk over the whole change log (see above). */
export async function compactChangeLog(db: Db, options: CompactOptions): Promise<CompactionResult> {
  const result: CompactionResult = { read: 0, superseded: 0, tombstones: 0, batches: 0, longestMs: 0, ran: false };
  // One compactor at a time per database (a cluster's servers, a test calling it beside the timer).
  // Session-level lock: on PostgreSQL the pool may hand each statement another connection, so it
  // is taken and released inside one connection.
  await db.connection().execute(async (conn) => {
    const { rows } = await sql<{ ok: boolean }>`select ${COMPACT_LOCK} as ok`.execute(conn);
    if (!rows[0]?.ok) return;
    result.ran = true;
    // PGlite has no autovacuum: without statistics its planner may probe the log row by row by
    // scanning it (a first run took seconds per batch in bench/change-log.ts), and without a vacuum
    // the removed rows' space is never reused (the log's size grew with every update although
    // its rows did not). Both are one statement each, on a log of about one row per record.
    const embedded = await isSingleConnection(conn);
    try {
      if (embedded) await sql`analyze change_log`.execute(conn);
      await walk(conn, options, result);
      if (embedded && result.superseded + result.tombstones > 0) {
        const started = performance.now();
        await sql`vacuum (analyze) change_log`.execute(conn);
        result.vacuumMs = performance.now() - started;
      }
    } finally {
      await sql`select ${COMPACT_UNLOCK}`.execute(conn);
    }
  });
  return result;
}

async function walk(db: Db, options: CompactOptions, result: CompactionResult): Promise<void> {
  const cutoff = new Date((options.now ?? new Date()).getTime() - options.retentionMs);
  let after = '0';
  let size = compactionTuning.firstBatch;
  for (;;) {
    if (options.stopped?.()) return;
    const started = performance.now();
    const { rows } = await sql<{ last: string | null; read: string; superseded: string; tombstones: string }>`
      with batch as (
        select seq, team_id, board_id, collection, record_id, at from change_log
        where seq > ${after} order by seq limit ${size}
      ), judged as (
        select b.*, exists (
          select 1 from change_log n
          where n.team_id = b.team_id and n.board_id = b.board_id and n.collection = b.collection
            and n.record_id = b.record_id and n.seq > b.seq
        ) as superseded
        from batch b
      ), doomed as (
        select seq, team_id, board_id, superseded from judged j
        where j.superseded or (
          j.at < ${cutoff}
          and not (j.collection = 'folder' and j.record_id = j.board_id)
          and not exists (select 1 from records r where r.collection = j.collection and r.id = j.record_id)
        )
      ), gone as (
        delete from change_log c using doomed d where c.seq = d.seq
        returning d.seq, d.team_id, d.board_id, d.superseded
      ), raised as (
        insert into change_log_horizons (team_id, board_id, horizon)
        select team_id, board_id, max(seq) from gone where not superseded group by team_id, board_id
        on conflict (team_id, board_id) do update set horizon = greatest(change_log_horizons.horizon, excluded.horizon)
        returning 1
      )
      select (select max(seq) from batch)::text as last, (select count(*) from batch)::text as read,
        (select count(*) from gone where superseded)::text as superseded,
        (select count(*) from gone where not superseded)::text as tombstones,
        (select count(*) from raised)::text as raised`.execute(db);
    const ms = performance.now() - started;
    const row = rows[0]!;
    const read = Number(row.read);
    result.batches += 1;
    result.read += read;
    result.superseded += Number(row.superseded);
    result.tombstones += Number(row.tombstones);
    result.longestMs = Math.max(result.longestMs, ms);
    if (read < size || row.last === null) return;
    after = row.last;
    size = nextBatchSize(size, read, ms);
    // Requests waiting for the database go first (PGlite: one connection for everyone).
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** The next batch: as many rows as fit BATCH_MS at the last batch's speed, at most doubling. */
export function nextBatchSize(previous: number, rows: number, ms: number): number {
  const fitting = Math.floor((rows * compactionTuning.batchMs) / Math.max(ms, 1));
  return Math.max(compactionTuning.minBatch, Math.min(compactionTuning.maxBatch, previous * 2, fitting));
}

/**
 * The boards of the team (or the one board) whose compaction horizon is above `after`: a reader
 * from that cursor may have missed a removal for good there and must load them again. Read after
 * the page of changes (a later statement sees every horizon raised before the page was read).
 */
export async function boardsToReindex(db: Db, teamId: number, after: number, boardId: string | null): Promise<string[]> {
  let query = db.selectFrom('change_log_horizons').select('board_id').where('team_id', '=', teamId).where('horizon', '>', String(after));
  if (boardId) query = query.where('board_id', '=', boardId);
  return (await query.execute()).map((r) => r.board_id);
}

interface Log {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface ChangeLogCompactor {
  stop(): Promise<void>;
}

/**
 * Compacts every `intervalMs` (the first run after at most a minute); runs never overlap, errors
 * are logged and the next run tries again. An interval of 0 turns it off.
 */
export function startChangeLogCompactor(ctx: AppContext, log: Log): ChangeLogCompactor {
  const config = ctx.config.changeLog ?? loadChangeLogConfig({});
  if (config.intervalMs <= 0) return { async stop() {} };
  let running: Promise<void> | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout;
  const run = () => {
    if (running || stopped) return;
    running = compactChangeLog(ctx.db, { retentionMs: config.retentionMs, now: ctx.now(), stopped: () => stopped })
      .then((r) => {
        if (r.superseded || r.tombstones) log.info({ ...r }, 'change log compacted');
      })
      .catch((error: unknown) => log.error({ err: error }, 'change log compaction failed'))
      .finally(() => {
        running = null;
        if (!stopped) timer = setTimeout(run, config.intervalMs).unref();
      });
  };
  timer = setTimeout(run, Math.min(config.intervalMs, 60_000)).unref();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
