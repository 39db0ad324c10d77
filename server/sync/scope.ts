import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Database } from '../db/types';
import type { FolderRecord } from '../../schema/records';
import type { PermissionLevel } from '../../schema/permissions';
import { ApiError, notFound, unauthorized } from '../http/errors';
import { Messages } from '../../schema/messages';
import { allowed, canView, chainTo, workspaceLevel, type TeamRow, type Viewer } from './access';
import { REFUSAL_MESSAGES } from '../../schema/refusals';
import { boardRecords, findRecord, findRecordsAndFolders, writeLogged, writeManyLogged, type ChangeKind, type LoggedWrite, type StoredRecord, type WireRecord } from './store';
import { registerFloor, teamLock } from './cursor';
import { eventOfWrite } from '../events/record-events';

/**
 * How a write holds its team (docs/decisions/0031-change-cursor.md): plain saves of items, values,
 * views and comments share it and run side by side; structural writes (deletes, restores, folders,
 * attributes, time entries, reactions) take it alone, so the checks they make across records
 * (cascades, one running timer, one reaction, unique attribute names) hold until they commit.
 */
export type LockMode = 'shared' | 'exclusive';

/**
 * Thrown at the end of a batch whose deferred writes were overtaken by another transaction: the
 * answers it built are wrong for those requests, so runWrite runs it again without deferring
 * (then each overtaken save answers its own 409).
 */
export class DeferredWritesOvertaken extends Error {
  constructor() {
    super('deferred writes overtaken');
  }
}

/** A realtime event to publish once the transaction has committed. */
export interface PendingEvent {
  channel: string;
  event: string;
  data: unknown;
}

/**
 * Everything one write request works with: its transaction, the team and the signed-in user,
 * the events to publish after commit, and per-request caches of folders and referenced records
 * (kept up to date by the writes of the same request, so a batch can create a board and then
 * its items).
 */
export class WriteScope {
  readonly events: PendingEvent[] = [];
  /** Set when an automation writes (server/automations): goes on every domain event of this scope. */
  via: Record<string, unknown> | null = null;
  /**
   * The abilities of the API token the request came with (decision 0145), or null for a session or
   * work outside a request. Routes are judged by server/developer/abilities.ts; a save that changes
   * who may see or do what needs `admin` whatever its route (requireTokenAbility, issue #26 N8).
   */
  tokenAbilities: readonly string[] | null = null;
  /** Whether the workspace's plan allows Pro-only views (server/billing/pro-views.ts); null: not asked (server-made writes: templates, imports). */
  proViews: (() => Promise<boolean>) | null = null;
  /** Set when the workspace is read-only (server/billing/read-only.ts): every save of the request is refused with it. */
  refusal: ApiError | null = null;
  private readonly boardFolders = new Map<string, Map<string, FolderRecord>>();
  private readonly records = new Map<string, StoredRecord | null>();
  private readonly journal: [string, StoredRecord | null | undefined][] = [];
  /** The team lock this transaction holds (its change floor comes with the first one). */
  private held: LockMode | null;

  constructor(
    readonly trx: Transaction<Database>,
    readonly team: TeamRow,
    readonly viewer: Viewer & { id: number },
    readonly now: Date,
    opts: { locked?: LockMode; mayDefer?: boolean; shownAs?: number } = {},
  ) {
    this.held = opts.locked ?? null;
    this.shownAs = opts.shownAs ?? null;
    this.mayDefer = opts.mayDefer ?? false;
  }

  private readonly mayDefer: boolean;
  /**
   * The author the writes are stamped with when it is not the actor (Autobot for an automation's
   * run, sync/actor.ts); permissions are still judged for `viewer`, the actor.
   */
  private readonly shownAs: number | null;
  /** Record writes held back to be written together (a shared batch), or null: write at once. */
  private deferred: LoggedWrite[] | null = null;
  private deferredKeys = new Set<string>();

  /**
   * From now on record writes wait for flushWrites() and go in one statement. Only for a write
   * holding the lock shared (plain saves): they do nothing else in the database after their
   * write, and read records only through this scope's cache (which every write updates at once).
   */
  deferWrites(): void {
    if (this.mayDefer && this.held === 'shared') this.deferred ??= [];
  }

  /** Writes a record and its change (writeLogged), or defers it. False: overtaken, nothing written. */
  async writeLogged(collection: string, record: WireRecord, createdBy: number | null, deletedAt: Date | null, op: ChangeKind): Promise<boolean> {
    // Its domain event is written with it, in the same statement (server/events/outbox.ts).
    const event = await eventOfWrite(this, collection, record, op);
    if (!this.deferred) return writeLogged(this.trx, collection, this.team.id, record, createdBy, deletedAt, this.now, op, event);
    const key = `${collection}:${record.id}`;
    // One statement cannot write a row twice: a second write of the same record flushes first.
    if (this.deferredKeys.has(key)) await this.flushWrites();
    this.deferred.push({ collection, record, createdBy, deletedAt, op, event });
    this.deferredKeys.add(key);
    return true;
  }

  /**
   * Writes what was deferred; throws DeferredWritesOvertaken when any was overtaken. `alongside`
   * (a data-modifying statement) goes in the same round trip as the last part; returns whether it
   * did (false when nothing was deferred: the caller runs it itself).
   */
  async flushWrites(alongside?: RawBuilder<unknown>): Promise<boolean> {
    if (!this.deferred?.length) return false;
    const writes = this.deferred;
    this.deferred = [];
    this.deferredKeys.clear();
    for (let i = 0; i < writes.length; i += 1000) {
      const part = writes.slice(i, i + 1000);
      const last = i + 1000 >= writes.length;
      if ((await writeManyLogged(this.trx, this.team.id, this.now, part, last ? alongside : undefined)) !== part.length) throw new DeferredWritesOvertaken();
    }
    return alongside !== undefined;
  }

  /** Refuses the write when it came with an API token that lacks `ability` (a session always has it). */
  requireTokenAbility(ability: string, field: string): void {
    if (this.tokenAbilities && !this.tokenAbilities.includes(ability)) {
      throw new ApiError(403, `This token does not have the "${ability}" ability.`, 'unauthorized', { required: ability, field });
    }
  }

  /** The author stamped on writes and events (the actor, or whom it is shown as). */
  get userId(): number {
    return this.shownAs ?? this.viewer.id;
  }

  /**
   * Holds the team lock in at least `mode` (and registers the change floor with the first lock).
   * runWrite takes the right mode up front with its first statement; raising shared to exclusive
   * here only happens when that plan missed a structural write, and is still correct.
   */
  async lock(mode: LockMode = 'exclusive'): Promise<void> {
    if (this.held === 'exclusive' || this.held === mode) return;
    // A structural write reads and writes the database directly: nothing may stay deferred.
    await this.flushWrites();
    this.deferred = null;
    if (this.held === null) await sql`select ${teamLock(this.team.id, mode)}, ${registerFloor}`.execute(this.trx);
    else await sql`select ${teamLock(this.team.id, 'exclusive')}`.execute(this.trx);
    this.held = mode;
  }

  /** A record of this team by collection and id (trashed ones included), cached per request. */
  async record(collection: string, id: string): Promise<StoredRecord | null> {
    const key = `${collection}:${id}`;
    if (!this.records.has(key)) {
      const found = await findRecord(this.trx, collection, id);
      this.records.set(key, found);
    }
    return this.records.get(key) ?? null;
  }

  /**
   * Loads the records not cached yet and the live folders of the boards not loaded yet, in one
   * query (the save path's only read; a batch prefetches all its requests with one).
   */
  async prefetch(keys: { collection: string; id: string }[], boardIds?: string | string[]): Promise<void> {
    const missing = [...new Map(keys.filter((k) => !this.records.has(`${k.collection}:${k.id}`)).map((k) => [`${k.collection}:${k.id}`, k])).values()];
    const boards = [...new Set(boardIds === undefined ? [] : Array.isArray(boardIds) ? boardIds : [boardIds])].filter((b) => !this.boardFolders.has(b));
    if (missing.length === 0 && boards.length === 0) return;
    const rows = await findRecordsAndFolders(this.trx, missing, boards.length ? { teamId: this.team.id, boardIds: boards } : null);
    for (const boardId of boards) {
      const folders = new Map<string, FolderRecord>();
      for (const row of rows) {
        if (row.collection === 'folder' && row.team_id === this.team.id && row.board_id === boardId && row.deleted_at === null) folders.set(row.id, row.data as unknown as FolderRecord);
      }
      this.boardFolders.set(boardId, folders);
    }
    const found = new Map(rows.map((r) => [`${r.collection}:${r.id}`, r]));
    for (const [key, row] of found) if (!this.records.has(key)) this.records.set(key, row);
    for (const k of missing) if (!this.records.has(`${k.collection}:${k.id}`)) this.records.set(`${k.collection}:${k.id}`, null);
  }

  /** Keeps the caches in step with a write of this request (null = removed). */
  remember(collection: string, id: string, stored: StoredRecord | null): void {
    const key = `${collection}:${id}`;
    // Undo log for savepoints: what this key held before (absent = undefined).
    this.journal.push([key, this.records.has(key) ? this.records.get(key)! : undefined]);
    this.records.set(key, stored);
    if (collection !== 'folder') return;
    for (const folders of this.boardFolders.values()) folders.delete(id);
    if (stored && stored.deleted_at === null) {
      const folders = this.boardFolders.get(stored.board_id);
      if (folders) folders.set(id, stored.data as unknown as FolderRecord);
    }
  }

  /** The live folders of a board, by id. */
  async folders(boardId: string): Promise<Map<string, FolderRecord>> {
    let folders = this.boardFolders.get(boardId);
    if (!folders) {
      const rows = await boardRecords(this.trx, this.team.id, boardId, 'folder');
      folders = new Map(rows.map((r) => [r.id, r.data as unknown as FolderRecord]));
      for (const row of rows) if (!this.records.has(`folder:${row.id}`)) this.records.set(`folder:${row.id}`, row);
      this.boardFolders.set(boardId, folders);
    }
    return folders;
  }

  /** The permission chain down to a folder of a board; 404 when the folder is not on that board. */
  async chain(boardId: string, folderId: string): Promise<PermissionLevel[]> {
    const chain = chainTo(this.team, await this.folders(boardId), folderId);
    if (!chain) throw notFound();
    return chain;
  }

  workspaceChain(): PermissionLevel[] {
    return [workspaceLevel(this.team)];
  }

  /** Throws 403 unless the user may do `permission` on the chain's resource. */
  require(permission: string, chain: PermissionLevel[], createdBy?: number | null): void {
    if (allowed(this.viewer, permission, chain, createdBy)) return;
    // The specific words (W8.8) only to someone who sees the board or folder: no hint to others.
    const specific = REFUSAL_MESSAGES[permission];
    if (specific && canView(this.viewer, chain)) throw new ApiError(403, specific, 'unauthorized');
    throw unauthorized();
  }

  publish(channel: string, event: string, data: unknown): void {
    this.events.push({ channel, event, data });
  }

  /** Checks run once the request's own work is done, inside its transaction (runWrite calls finish). */
  private readonly finishers = new Map<string, () => Promise<void>>();

  /**
   * Runs `check` at the end of this write, once per key: rules that hold across the records of a
   * batch (a new board has a name attribute whether or not the batch brought one) look at the
   * result, not at the request that triggered them.
   */
  atFinish(key: string, check: () => Promise<void>): void {
    if (!this.finishers.has(key)) this.finishers.set(key, check);
  }

  async finish(): Promise<void> {
    for (const [key, check] of this.finishers) {
      this.finishers.delete(key);
      await check();
    }
  }

  /**
   * A savepoint of the caches and events (see batch.ts). Records read from the database stay valid
   * after a rollback (they were read before this savepoint's writes or are overwritten by them), so
   * only this scope's own writes are undone, from the journal; the folder maps are small and copied.
   */
  mark(): ScopeMark {
    return {
      events: this.events.length,
      journal: this.journal.length,
      deferred: this.deferred?.length ?? 0,
      boardFolders: new Map([...this.boardFolders].map(([board, folders]) => [board, new Map(folders)])),
    };
  }

  /** Puts the caches and events back as they were at the mark (the savepoint was rolled back). */
  rollbackTo(mark: ScopeMark): void {
    this.events.length = mark.events;
    if (this.deferred && this.deferred.length > mark.deferred) {
      this.deferred.length = mark.deferred;
      this.deferredKeys = new Set(this.deferred.map((w) => `${w.collection}:${w.record.id}`));
    }
    while (this.journal.length > mark.journal) {
      const [key, previous] = this.journal.pop()!;
      if (previous === undefined) this.records.delete(key);
      else this.records.set(key, previous);
    }
    this.boardFolders.clear();
    for (const [k, v] of mark.boardFolders) this.boardFolders.set(k, v);
  }
}

export interface ScopeMark {
  events: number;
  journal: number;
  deferred: number;
  boardFolders: Map<string, Map<string, FolderRecord>>;
}

/** A 409 carrying the stored copy (or null when the record no longer exists). */
export function conflict(stored: unknown): ApiError {
  return new ApiError(409, Messages.conflict, 'conflict', stored ?? null);
}
