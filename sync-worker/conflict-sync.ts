/**
 * The user's conflicts across their devices (issue #30 parts 2 and 3, decision 0346). The
 * conflicts table is per device (decision 0345); this keeps it in step with the user's list on the
 * server:
 *   - a row recorded here gets a key and is reported (POST /api/{teamId}/conflicts), which also
 *     writes the activity entry everyone reading the item sees;
 *   - a row settled here (Keep mine / Keep theirs, the engine's `conflicts` event with `removed`)
 *     is settled on the server (POST /api/me/conflicts/{key}/resolve); offline, the key waits in
 *     meta and goes first when the server is reached again;
 *   - on every connect and on the user channel's ConflictsChanged, the open list is pulled
 *     (GET /api/me/conflicts): rows another device reported are added, rows another device settled
 *     are dropped. Every tab hears the change through the same `conflicts` event.
 * Runs one pass at a time; a pass asked for during one runs once more after it.
 */
import { CONFLICT_KEY_PATTERN, type ConflictRecord, type ServerConflict } from '../schema/sync-conflicts';
import type { UserDb } from './db';
import type { Emitter } from './events';
import type { HttpClient } from './http';
import type { SyncRuntime, Session } from './api';

/** meta key: keys settled here whose resolve did not reach the server yet. */
export const PENDING_RESOLUTIONS_KEY = 'conflict-resolutions';

interface Tracked {
  key?: string;
  reported?: boolean;
}

export interface ConflictSyncOptions {
  db: UserDb;
  http: HttpClient;
  events: Emitter;
  newId: () => string;
}

export class ConflictSync {
  /** seq → the row's key, known before the row is deleted (the `removed` event carries only seqs). */
  private tracked = new Map<number, Tracked>();
  /** Keys the server refused to take this session (record no longer readable…): not asked again. */
  private refused = new Set<string>();
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  /** Resolutions being written to meta (the event's listener cannot wait; a pass does). */
  private settling: Promise<void> = Promise.resolve();
  private readonly off: () => void;

  constructor(private readonly opts: ConflictSyncOptions) {
    this.off = opts.events.on((event, payload) => {
      if (this.stopped) return;
      if (event === 'connection' && (payload as { status: string }).status === 'connected') void this.sync();
      if (event === 'conflicts') {
        const change = payload as { added: ConflictRecord[]; removed: number[] };
        for (const row of change.added) if (row.seq !== undefined) this.tracked.set(row.seq, { key: row.key, reported: row.reported });
        const settled = change.removed.map((seq) => this.tracked.get(seq)).filter((t): t is Tracked => Boolean(t?.key && t.reported));
        for (const seq of change.removed) this.tracked.delete(seq);
        if (settled.length || change.added.length) {
          // Kept in meta before any pass runs (a pass started right after awaits it).
          this.settling = this.settling.then(() => this.settle(settled.map((t) => t.key!))).catch(() => undefined);
          void this.settling.then(() => this.sync());
        }
      }
    });
  }

  stop(): void {
    this.stopped = true;
    this.off();
  }

  /** Loads what the table holds (keys of rows recorded before this start), then syncs. */
  async start(): Promise<void> {
    const rows = await this.opts.db.relaxed.conflicts.toArray();
    for (const row of rows) if (row.seq !== undefined) this.tracked.set(row.seq, { key: row.key, reported: row.reported });
    await this.sync();
  }

  /** One pass: pending resolutions, then new rows reported, then the open list pulled. */
  sync(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const run = (async () => {
      do {
        this.again = false;
        if (this.stopped) return;
        await this.settling;
        try {
          if (!(await this.sendResolutions())) return;
          if (!(await this.report())) return;
          await this.pull();
        } catch {
          // Offline or the server away: the next connect runs it again.
          return;
        }
      } while (this.again);
    })();
    this.running = run;
    void run.finally(() => {
      if (this.running === run) this.running = null;
    });
    return run;
  }

  /** Remembers keys settled here, to send (kept in meta, so a reload offline keeps them). */
  private async settle(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    const meta = this.opts.db.strict.meta;
    await this.opts.db.strict.transaction('rw', meta, async () => {
      const pending = await pendingOf(meta);
      await meta.put({ key: PENDING_RESOLUTIONS_KEY, value: [...new Set([...pending, ...keys])] });
    });
  }

  /** False when the server was not reached. */
  private async sendResolutions(): Promise<boolean> {
    const meta = this.opts.db.strict.meta;
    const pending = await pendingOf(meta);
    for (const key of pending) {
      const res = await this.opts.http.request('post', `/api/me/conflicts/${encodeURIComponent(key)}/resolve`, { body: {} });
      if (notReached(res.status)) return false;
      await this.opts.db.strict.transaction('rw', meta, async () => {
        const now = await pendingOf(meta);
        await meta.put({ key: PENDING_RESOLUTIONS_KEY, value: now.filter((k) => k !== key) });
      });
    }
    return true;
  }

  /** Reports rows not yet on the server (a key is given first). False when the server was not reached. */
  private async report(): Promise<boolean> {
    const table = this.opts.db.strict.conflicts;
    const rows = (await table.toArray()).filter((r) => !r.reported && r.team_id !== undefined && !(r.key && this.refused.has(r.key)));
    for (const row of rows) {
      let key = row.key;
      if (!key || !CONFLICT_KEY_PATTERN.test(key)) {
        key = this.opts.newId();
        await table.update(row.seq!, { key });
      }
      this.tracked.set(row.seq!, { key, reported: false });
      const res = await this.opts.http.request('post', `/api/${row.team_id}/conflicts`, { body: reportOf(row, key) });
      if (notReached(res.status)) return false;
      if (!res.ok) {
        this.refused.add(key);
        continue;
      }
      // Settled while it was on its way: the server's copy is settled too.
      if (!(await table.get(row.seq!))) {
        await this.settle([key]);
        continue;
      }
      await table.update(row.seq!, { reported: true });
      this.tracked.set(row.seq!, { key, reported: true });
    }
    return true;
  }

  /** Adds rows other devices reported, drops reported rows the server no longer lists as open. */
  private async pull(): Promise<void> {
    const res = await this.opts.http.request<{ data: ServerConflict[] }>('get', '/api/me/conflicts');
    if (!res.ok || !Array.isArray(res.body?.data)) return;
    const open = new Map(res.body.data.map((c) => [c.key, c]));
    const t = this.opts.db.strict;
    const { added, removed, count } = await t.transaction('rw', [t.conflicts, t.meta], async () => {
      const pending = new Set(await pendingOf(t.meta));
      const rows = await t.conflicts.toArray();
      const held = new Set(rows.map((r) => r.key).filter(Boolean));
      const gone = rows.filter((r) => r.reported && r.key && !open.has(r.key)).map((r) => r.seq!);
      await t.conflicts.bulkDelete(gone);
      const fresh = [...open.values()].filter((c) => !held.has(c.key) && !pending.has(c.key)).map(rowOf);
      const seqs = fresh.length ? ((await t.conflicts.bulkAdd(fresh, { allKeys: true })) as number[]) : [];
      fresh.forEach((row, i) => (row.seq = seqs[i]));
      return { added: fresh, removed: gone, count: await t.conflicts.count() };
    });
    for (const seq of removed) this.tracked.delete(seq);
    for (const row of added) this.tracked.set(row.seq!, { key: row.key, reported: true });
    // `added` stays empty: a row another device recorded was toasted there; here the inbox lists it.
    if (added.length || removed.length) this.opts.events.emit('conflicts', { count, added: [], removed });
  }
}

/** An answer that says nothing about the request (session, throttle, server trouble): try again later. */
const notReached = (status: number) => status === 401 || status === 408 || status === 429 || status >= 500;

async function pendingOf(meta: UserDb['strict']['meta']): Promise<string[]> {
  const value = (await meta.get(PENDING_RESOLUTIONS_KEY))?.value;
  return Array.isArray(value) ? value.filter((k): k is string => typeof k === 'string') : [];
}

/** What the server keeps of a row (the whole local and remote copies stay on this device). */
export function reportOf(row: ConflictRecord, key: string): Omit<ServerConflict, 'team_id' | 'created_at'> {
  return {
    key,
    kind: row.kind,
    collection: row.collection,
    id: row.id,
    item_id: row.item_id,
    attribute_id: row.attribute_id,
    field: row.field,
    text: row.text,
    mine: row.mine ?? null,
    theirs: row.theirs ?? null,
    base: row.base ?? null,
    theirs_by: typeof row.theirs_by === 'number' ? row.theirs_by : null,
    theirs_at: row.theirs_at,
    theirs_row_version: row.theirs_row_version,
  };
}

/** A row from the server's list (another device's): a whole-record row keeps its copies as local/remote. */
export function rowOf(c: ServerConflict): ConflictRecord {
  return {
    kind: c.kind,
    collection: c.collection,
    id: c.id,
    item_id: c.item_id,
    attribute_id: c.attribute_id,
    field: c.field,
    text: c.text,
    mine: c.mine,
    theirs: c.theirs,
    base: c.base,
    theirs_by: c.theirs_by,
    theirs_at: c.theirs_at,
    theirs_row_version: c.theirs_row_version,
    team_id: c.team_id,
    time: Date.parse(c.created_at) || Date.now(),
    local: c.kind === 'record' ? ((c.mine as Record<string, unknown> | null) ?? null) : null,
    remote: c.kind === 'record' ? ((c.theirs as Record<string, unknown> | null) ?? null) : null,
    key: c.key,
    reported: true,
  };
}

const running = new WeakMap<Session, ConflictSync>();

/** The session's conflict sync (worker-realtime.ts passes it the user channel's ConflictsChanged). */
export function conflictSyncOf(session: Session): ConflictSync | undefined {
  return running.get(session);
}

/** Starts a ConflictSync for each signed-in session of the runtime. */
export function attachConflictSync(runtime: SyncRuntime, newId: () => string): () => void {
  let current: { session: Session; sync: ConflictSync } | null = null;
  const off = runtime.onSession((session) => {
    current?.sync.stop();
    current = null;
    if (!session) return;
    const sync = new ConflictSync({ db: session.db, http: session.http, events: runtime.events, newId });
    running.set(session, sync);
    current = { session, sync };
    void sync.start().catch(() => undefined);
  });
  return () => {
    off();
    current?.sync.stop();
  };
}
