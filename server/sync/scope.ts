import type { Transaction } from 'kysely';
import type { Database } from '../db/types';
import type { FolderRecord } from '../../schema/records';
import type { PermissionLevel } from '../../schema/permissions';
import { ApiError, notFound, unauthorized } from '../http/errors';
import { Messages } from '../../schema/messages';
import { allowed, chainTo, workspaceLevel, type TeamRow, type Viewer } from './access';
import { boardRecords, findRecord, findRecordsAndFolders, lockTeamForWrite, type StoredRecord } from './store';

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
  private readonly boardFolders = new Map<string, Map<string, FolderRecord>>();
  private readonly records = new Map<string, StoredRecord | null>();
  private readonly journal: [string, StoredRecord | null | undefined][] = [];
  private locked = false;

  constructor(
    readonly trx: Transaction<Database>,
    readonly team: TeamRow,
    readonly viewer: Viewer & { id: number },
    readonly now: Date,
  ) {}

  get userId(): number {
    return this.viewer.id;
  }

  /** Takes the team's write lock once per transaction (see lockTeamForWrite). */
  async lock(): Promise<void> {
    if (this.locked) return;
    await lockTeamForWrite(this.trx, this.team.id);
    this.locked = true;
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
   * Loads the records not cached yet and, when `boardId` is given and not loaded yet, the board's
   * live folders, in one query (the save path's only read besides the idempotency lookup).
   */
  async prefetch(keys: { collection: string; id: string }[], boardId?: string): Promise<void> {
    const missing = keys.filter((k) => !this.records.has(`${k.collection}:${k.id}`));
    const loadFolders = boardId !== undefined && !this.boardFolders.has(boardId);
    if (missing.length === 0 && !loadFolders) return;
    const rows = await findRecordsAndFolders(this.trx, missing, loadFolders ? { teamId: this.team.id, boardId: boardId! } : null);
    if (loadFolders) {
      const folders = new Map<string, FolderRecord>();
      for (const row of rows) {
        if (row.collection === 'folder' && row.team_id === this.team.id && row.board_id === boardId && row.deleted_at === null) folders.set(row.id, row.data as unknown as FolderRecord);
      }
      this.boardFolders.set(boardId!, folders);
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
    if (!allowed(this.viewer, permission, chain, createdBy)) throw unauthorized();
  }

  publish(channel: string, event: string, data: unknown): void {
    this.events.push({ channel, event, data });
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
      boardFolders: new Map([...this.boardFolders].map(([board, folders]) => [board, new Map(folders)])),
    };
  }

  /** Puts the caches and events back as they were at the mark (the savepoint was rolled back). */
  rollbackTo(mark: ScopeMark): void {
    this.events.length = mark.events;
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
  boardFolders: Map<string, Map<string, FolderRecord>>;
}

/** A 409 carrying the stored copy (or null when the record no longer exists). */
export function conflict(stored: unknown): ApiError {
  return new ApiError(409, Messages.conflict, 'conflict', stored ?? null);
}
