/**
 * A replica that belongs to another database (decision 0102).
 *
 * The server names its database on every answer (X-Server-Id) and never hands out a cursor past
 * its change horizon. When an answer names another database than the replica was loaded from, or
 * /changes answers a cursor below ours, the server was reset, restored from a backup or pointed at
 * another database: our copies, cursors and row versions describe a history it does not have.
 *
 * Starting over keeps everything unsent and drops the rest, in one strict transaction:
 * - `records`: only copies the user's unsent work shows (queued requests, drafts) stay; the boards
 *   are loaded again from the server, so boards that no longer exist disappear;
 * - `failedRequests`: every queued edit stays, rebased onto an empty history — each record's chain
 *   starts from nothing (its first save carries row_version 1, as for a new record) — so the new
 *   server judges it afresh: it creates what it can take (the record's board is there), answers a
 *   conflict where it holds its own copy, and refuses the rest, which goes to "Not saved" (0094).
 *   Keys stay: an answer refused during the switch may have been applied, and the same key gets
 *   the stored answer instead of a second write;
 * - `refusedEdits` and `drafts` stay; the copies they would restore (old / previous) came from
 *   the other database and are forgotten, so a retry creates and a discard removes;
 * - `conflicts` stay as they are (they hold both sides as the user saw them);
 * - `meta`: cursors, loaded-board marks and every other replica mark go; the session, the schema
 *   hash and the new server id stay.
 */
import type { UserDb } from './db';
import type { QueuedRequest, SyncRecord } from './types';

/** The meta key holding the id of the database the replica was loaded from. */
export const SERVER_META_KEY = 'server';

/** Meta entries that are not replica state and survive a start-over. */
const KEPT_META = new Set(['session', 'schema', SERVER_META_KEY]);

/**
 * Each record's queued chain rebased onto a history that starts empty: in seq order, every
 * request's `old` is the copy the one before it leaves (null for the first), and a save's
 * row_version is that copy's plus one. A save-multiple request (no single record) is left alone.
 */
export function rebaseChains(rows: readonly QueuedRequest[]): QueuedRequest[] {
  const chains = new Map<string, QueuedRequest[]>();
  for (const row of rows) {
    const key = `${row.collection}\u0000${row.id}`;
    chains.set(key, [...(chains.get(key) ?? []), row]);
  }
  const out: QueuedRequest[] = [];
  for (const chain of chains.values()) {
    chain.sort((a, b) => a.seq - b.seq);
    let before = null as SyncRecord | null;
    for (const row of chain) {
      if (row.multiple) {
        out.push({ ...row, reserved_at: null });
        continue;
      }
      let item = row.item;
      if (row.method === 'put' && item) item = { ...item, row_version: (before?.row_version ?? 0) + 1 };
      out.push({ ...row, old: before, item, reserved_at: null });
      before = row.method === 'delete' ? null : item;
    }
  }
  return out;
}

export interface StartOverResult {
  /** Queued requests kept (rebased) for the new server. */
  queued: number;
  /** Records kept because unsent work shows them. */
  keptRecords: number;
}

/** Drops the replica of the other database, keeping the user's unsent work (see above). */
export async function startOver(db: UserDb, serverId: string | null): Promise<StartOverResult> {
  const t = db.strict;
  return t.transaction('rw', [t.records, t.failedRequests, t.drafts, t.refusedEdits, t.meta], async () => {
    const queued = rebaseChains(await t.failedRequests.toArray());
    const drafts = await t.drafts.toArray();
    const keep = new Map<string, [string, string]>();
    for (const r of queued) keep.set(`${r.collection}\u0000${r.id}`, [r.collection, r.id]);
    for (const d of drafts) keep.set(`${d.collection}\u0000${d.id}`, [d.collection, d.id]);
    const keptKeys = [...keep.values()];
    const kept = (await t.records.bulkGet(keptKeys)).filter((r) => r !== undefined);
    await t.records.clear();
    if (kept.length) await t.records.bulkPut(kept);
    if (queued.length) await t.failedRequests.bulkPut(queued);
    if (drafts.length) await t.drafts.bulkPut(drafts.map((d) => ({ ...d, previous: null })));
    const refused = await t.refusedEdits.toArray();
    if (refused.length) await t.refusedEdits.bulkPut(refused.map((r) => ({ ...r, old: null })));
    const stale = (await t.meta.toCollection().primaryKeys()).filter((key) => !KEPT_META.has(key));
    if (stale.length) await t.meta.bulkDelete(stale);
    if (serverId !== null) await t.meta.put({ key: SERVER_META_KEY, value: serverId });
    return { queued: queued.length, keptRecords: kept.length };
  });
}
