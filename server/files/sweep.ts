import { sql, type Transaction } from 'kysely';
import type { AppContext } from '../context';
import type { Database } from '../db/types';
import { fileStore } from './storage';

/**
 * The upload sweep (decision 0095): a mark-and-sweep over the `uploads` table that removes the
 * files nothing references any more, e.g. after an item, a board or a workspace was deleted for
 * good, or an upload whose value was never saved.
 *
 * A file is referenced while its URL appears in any record, live or in the trash (values,
 * comments, any collection), in a user's or a workspace's photo, or in a workspace's white-label
 * settings. Each run:
 *  1. adopts stored files that have no row (written before the table existed),
 *  2. marks: clears `unreferenced_since` of referenced files and sets it to now on unreferenced
 *     ones that had none,
 *  3. collects: removes the files unreferenced since at least `grace` ago, row and bytes together,
 *     and lowers their workspaces' storage figures.
 * So a file goes only after sweeps have seen it unreferenced for the whole grace period: an undo,
 * a restore or a queued offline save can still claim it meanwhile.
 *
 * The run is one transaction holding a PostgreSQL advisory lock, so only one API server sweeps at
 * a time (the others skip), and files are removed before the commit: no run can find a file on
 * disk whose row another run has just dropped. It touches no route; the periodic timer below, or
 * later the job runner, calls `sweepUploads`.
 */

/** Advisory lock key (class, id) of the sweep; the class is distinct from the sync team locks. */
const SWEEP_LOCK_CLASS = 727310;
const SWEEP_LOCK_ID = 1;

/** An upload URL inside any text: `/api/files/{folder}/{name}` (the path part is the match). */
const REFERENCE = String.raw`/api/files/([a-z0-9-]{1,40}/[A-Za-z0-9_-]{1,64}\.(?:png|jpg|gif|webp|bin))`;

export interface SweepResult {
  /** False when another server held the sweep lock (this run did nothing). */
  ran: boolean;
  adopted: number;
  collected: number;
  freedBytes: number;
}

export interface SweepOptions {
  /** The sweep's clock; defaults to ctx.now(). */
  now?: Date;
  /** How long a file must have been seen unreferenced; defaults to the configured grace. */
  graceMs?: number;
}

export async function sweepUploads(ctx: AppContext, opts: SweepOptions = {}): Promise<SweepResult> {
  const now = opts.now ?? ctx.now();
  const cutoff = new Date(now.getTime() - (opts.graceMs ?? ctx.config.files.graceMs));
  return ctx.db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(${sql.lit(SWEEP_LOCK_CLASS)}, ${sql.lit(SWEEP_LOCK_ID)}) as locked`.execute(trx);
    if (!rows[0]?.locked) return { ran: false, adopted: 0, collected: 0, freedBytes: 0 };
    await collectReferences(trx);
    const adopted = await adoptUnknownFiles(ctx, trx);
    await mark(trx, now);
    const { collected, freedBytes } = await collect(ctx, trx, cutoff);
    return { ran: true, adopted, collected, freedBytes };
  });
}

/** Every referenced upload path (with the workspace of the reference, when it has one) into a temporary table. */
async function collectReferences(trx: Transaction<Database>): Promise<void> {
  await sql`
    create temporary table sweep_refs on commit drop as
    select distinct m[1] as path, r.team_id
      from records r, regexp_matches(r.data::text, ${REFERENCE}, 'g') as m
      where strpos(r.data::text, '/api/files/') > 0
    union
    select distinct m[1], null::integer
      from users u, regexp_matches(u.photo_url, ${REFERENCE}, 'g') as m
      where strpos(u.photo_url, '/api/files/') > 0
    union
    select distinct m[1], t.id
      from teams t, regexp_matches(coalesce(t.photo_url, '') || ' ' || coalesce(t.whitelabel_settings::text, ''), ${REFERENCE}, 'g') as m
      where strpos(coalesce(t.photo_url, '') || ' ' || coalesce(t.whitelabel_settings::text, ''), '/api/files/') > 0`.execute(trx);
  await sql`create index on sweep_refs (path)`.execute(trx);
}

/**
 * Gives a row to each stored file that has none (files from before the uploads table, a copied
 * data directory or bucket). It counts against the workspace of a record that references it, if any.
 */
async function adoptUnknownFiles(ctx: AppContext, trx: Transaction<Database>): Promise<number> {
  const stored: { path: string; size: number; created_at: string }[] = [];
  for await (const object of fileStore(ctx).list()) stored.push({ path: object.key, size: object.size, created_at: object.modified.toISOString() });
  if (stored.length === 0) return 0;
  const { rows } = await sql<{ n: string }>`
    with stored as (
      select f.path, f.size, f.created_at from jsonb_to_recordset(${JSON.stringify(stored)}::jsonb) as f(path text, size bigint, created_at timestamptz)
    ), found as (
      select f.path, f.size, f.created_at,
        (select min(r.team_id) from sweep_refs r join teams t on t.id = r.team_id where r.path = f.path) as team_id
      from stored f
      where not exists (select 1 from uploads u where u.path = f.path)
    ), adopted as (
      insert into uploads (path, team_id, size, created_at, unreferenced_since)
      select path, team_id, size, created_at, null from found
      on conflict (path) do nothing
      returning team_id, size
    ), counted as (
      insert into workspace_storage (team_id, bytes_used)
      select team_id, sum(size) from adopted where team_id is not null group by team_id
      on conflict (team_id) do update set bytes_used = workspace_storage.bytes_used + excluded.bytes_used
      returning 1
    )
    select (select count(*) from adopted) as n, (select count(*) from counted) as c`.execute(trx);
  return Number(rows[0]?.n ?? 0);
}

/** Starts the grace clock of files newly found unreferenced and stops it for files referenced again. */
async function mark(trx: Transaction<Database>, now: Date): Promise<void> {
  await sql`
    update uploads u set unreferenced_since = null
    where u.unreferenced_since is not null and exists (select 1 from sweep_refs r where r.path = u.path)`.execute(trx);
  await sql`
    update uploads u set unreferenced_since = ${now}
    where u.unreferenced_since is null and not exists (select 1 from sweep_refs r where r.path = u.path)`.execute(trx);
}

/** Removes the files unreferenced since `cutoff` or earlier: rows, stored bytes, and their share of the figures. */
async function collect(ctx: AppContext, trx: Transaction<Database>, cutoff: Date): Promise<{ collected: number; freedBytes: number }> {
  const { rows: gone } = await sql<{ path: string; team_id: number | null; size: string }>`
    with gone as (
      delete from uploads u
      where u.unreferenced_since <= ${cutoff} and not exists (select 1 from sweep_refs r where r.path = u.path)
      returning u.path, u.team_id, u.size
    ), released as (
      update workspace_storage w set bytes_used = greatest(0, w.bytes_used - g.bytes)
      from (select team_id, sum(size) as bytes from gone where team_id is not null group by team_id) g
      where w.team_id = g.team_id
      returning 1
    )
    select path, team_id, size from gone`.execute(trx);
  let freedBytes = 0;
  const store = fileStore(ctx);
  for (const row of gone) {
    await store.remove(row.path);
    freedBytes += Number(row.size);
  }
  return { collected: gone.length, freedBytes };
}

export interface UploadSweeper {
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

interface Log {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Runs the sweep every `config.files.sweepIntervalMs` (the first run after at most a minute, so a
 * server that restarts often still sweeps). Runs never overlap; errors are logged and the next run
 * tries again. An interval of 0 turns it off.
 */
export function startUploadSweeper(ctx: AppContext, log: Log): UploadSweeper {
  const interval = ctx.config.files.sweepIntervalMs;
  if (interval <= 0) return { async stop() {} };
  let running: Promise<void> | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout;
  const run = () => {
    if (running || stopped) return;
    running = sweepUploads(ctx)
      .then((result) => {
        if (result.adopted || result.collected) log.info({ ...result }, 'upload sweep');
      })
      .catch((error: unknown) => log.error({ err: error }, 'upload sweep failed'))
      .finally(() => {
        running = null;
        if (!stopped) timer = setTimeout(run, interval).unref();
      });
  };
  timer = setTimeout(run, Math.min(interval, 60_000)).unref();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
