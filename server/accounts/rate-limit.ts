import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/types';

/**
 * Sliding-window attempt counters kept in the database, so every API process behind a load
 * balancer counts into the same window (docs/decisions/0093-throttles-and-sessions.md).
 *
 * A caller takes a slot BEFORE it judges the attempt (hashes the password, checks the code): one
 * atomic statement both checks the window and counts the attempt, so N parallel guesses cannot all
 * pass a check that none of them has recorded yet. When the outcome should not count (a correct
 * password, a request that guessed nothing) the caller gives the slot back.
 */
export interface LimitRule {
  /** How many attempts the window allows. */
  max: number;
  windowMs: number;
}

export type Slot = { allowed: true; key: string; at: number } | { allowed: false; key: string; retryAfterMs: number };

export interface Throttle {
  /** Counts one attempt under `key` unless the window is full; a refused attempt is not counted. */
  take(key: string, rule: LimitRule): Promise<Slot>;
  /** Gives a counted attempt back (its outcome should not count). */
  giveBack(slot: Slot): Promise<void>;
  /** Forgets every attempt under `key` (a successful login clears the account's failures). */
  clear(key: string): Promise<void>;
  /** Deletes the rows whose window has passed. */
  sweep(): Promise<void>;
}

/** Expired rows are deleted at most this often per process, by the first attempt after it. */
const SWEEP_EVERY_MS = 10 * 60_000;

/** The database implementation: one row per key, `hits` = epoch ms of the attempts in the window. */
export class DatabaseThrottle implements Throttle {
  private lastSweep = 0;

  constructor(
    private readonly db: Kysely<Database>,
    /** The app's clock (ctx.now), so tests can move time. */
    private readonly now: () => Date,
  ) {}

  async take(key: string, rule: LimitRule): Promise<Slot> {
    const t = this.now().getTime();
    if (t - this.lastSweep >= SWEEP_EVERY_MS) {
      this.lastSweep = t;
      await this.sweep();
    }
    const cutoff = t - rule.windowMs;
    const expires = new Date(t + rule.windowMs);
    // ON CONFLICT … DO UPDATE locks the row: a parallel attempt on the same key waits and then
    // sees this one's hit. Every SET expression reads the row as it was before this update.
    const live = sql`array(select h from unnest(th.hits) as h where h > ${cutoff}::bigint order by h)`;
    const room = sql`cardinality(${live}) < ${rule.max}`;
    const { rows } = await sql<{ allowed: boolean; hits: Array<string | number> }>`
      insert into throttle_hits as th (key, hits, allowed, expires_at)
      values (${key}, array[${t}::bigint], true, ${expires})
      on conflict (key) do update set
        hits = case when ${room} then ${live} || ${t}::bigint else ${live} end,
        allowed = ${room},
        expires_at = case when ${room} then ${expires} else th.expires_at end
      returning allowed, hits`.execute(this.db);
    const row = rows[0]!;
    if (row.allowed) return { allowed: true, key, at: t };
    const oldest = Math.min(...row.hits.map(Number));
    return { allowed: false, key, retryAfterMs: Math.max(0, oldest + rule.windowMs - t) };
  }

  async giveBack(slot: Slot): Promise<void> {
    if (!slot.allowed) return;
    // Removes one occurrence of the slot's time (two attempts in the same millisecond are alike).
    const at = sql`array_position(hits, ${slot.at}::bigint)`;
    await sql`
      update throttle_hits set hits = hits[:${at} - 1] || hits[${at} + 1:]
      where key = ${slot.key} and ${at} is not null`.execute(this.db);
  }

  async clear(key: string): Promise<void> {
    await this.db.deleteFrom('throttle_hits').where('key', '=', key).execute();
  }

  async sweep(): Promise<void> {
    await this.db.deleteFrom('throttle_hits').where('expires_at', '<=', this.now()).execute();
  }
}
