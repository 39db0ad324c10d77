/**
 * The worker's IndexedDB (Dexie), one database per signed-in user: `cairn-{userId}`.
 *
 *   records         every synced copy, key [collection+id], the registry's compound indexes
 *   drafts          edits shown but not saved yet, key [collection+id]
 *   conflicts       fields (or records) both sides changed: mine, theirs, base, who, when (ConflictRecord)
 *   failedRequests  every request the server has not answered yet (error/reserved_at once tried)
 *   refusedEdits    edits the server refused for good (403/404/422…), whole, until retried or discarded
 *   meta            cursors, the session's token record, the schema hash
 *
 * Drafts, conflicts, failedRequests and refusedEdits are the user's unsynced work: they are written through the
 * `strict` handle (IndexedDB durability "strict": on disk before the transaction completes) and no
 * version below ever drops or clears them. `records` is a cache and may be rebuilt.
 *
 * Only the worker writes. Tabs open the same database through `openReadonlyDb` for useLiveQuery.
 */
import Dexie, { type Table, type Transaction } from 'dexie';
import { dexieRecordsStore } from '../schema/collections';
import type { ConflictEntry, DraftEntry, QueuedRequest, RefusedEdit, StoredRecord, SyncRecord } from './types';
import { itemIdOf } from './conflict-merge';
import { dbNameFor } from './db-name';
import { recordWritesMiddleware } from './record-writes';

export interface MetaEntry {
  key: string;
  value: unknown;
  /** For the session entry: when the token record arrived (its clock for expiry). */
  receivedAt?: number;
}

/**
 * Every schema the database has had, oldest first. Add a version when an index changes; never
 * remove a table of unsynced work. The latest `records` string must equal the registry's
 * `dexieRecordsStore` (a test checks it), so a registry change without a new version fails CI.
 */
export const DB_VERSIONS: { version: number; stores: Record<string, string | null>; upgrade?: (tx: Transaction) => Promise<unknown> }[] = [
  {
    version: 1,
    stores: {
      records:
        '[collection+id], collection, [collection+attribute_id], [collection+board_id], [collection+comment_id], [collection+created_by], [collection+folder_id], [collection+item_id], [collection+parent_id]',
      drafts: '[collection+id], time',
      conflicts: '++seq, [collection+id], time',
      failedRequests: 'key, seq, [collection+id], teamId',
      meta: 'key',
    },
  },
  {
    // Only the indexes some query uses: every index is one more entry written per record, and the
    // bootstrap writes every record of a board. (Dropped: parent_id, comment_id, created_by.)
    // Tables not named keep their schema; the durable ones are never touched.
    version: 2,
    stores: {
      records: '[collection+id], collection, [collection+attribute_id], [collection+board_id], [collection+folder_id], [collection+item_id]',
    },
  },
  {
    // Dropped `collection` (a primary-key range reads one collection) and [collection+folder_id]
    // (a folder's items are read from the board index): two fewer index entries per bootstrapped
    // record. Only `records` changes; its rows are kept.
    version: 3,
    stores: {
      records: '[collection+id], [collection+attribute_id], [collection+board_id], [collection+item_id]',
    },
  },
  {
    // Refused edits leave the queue for a table of their own (decision 0094): the queue sends
    // whatever it holds, and a refused edit must wait for the user. One row per record.
    // `records` is restated unchanged (the latest version names the registry's store).
    version: 4,
    stores: {
      records: '[collection+id], [collection+attribute_id], [collection+board_id], [collection+item_id]',
      refusedEdits: '[collection+id], refused_at',
    },
  },
  {
    // Conflict rows name one field (issue 30, decision 0345): indexed by the item they belong to,
    // so a card can show its marker. Rows from before are kept as whole-record conflicts.
    version: 5,
    stores: {
      records: '[collection+id], [collection+attribute_id], [collection+board_id], [collection+item_id]',
      conflicts: '++seq, [collection+id], time, item_id',
    },
    upgrade: (tx) => tx.table('conflicts').toCollection().modify((row: Record<string, unknown>) => upgradeConflictRow(row)),
  },
];

/** A conflict row written before field merge becomes a whole-record ConflictRecord (nothing dropped). */
export function upgradeConflictRow(row: Record<string, unknown>): void {
  if (row.kind) return;
  const collection = String(row.collection ?? '');
  const id = String(row.id ?? '');
  const local = (row.local ?? null) as SyncRecord | null;
  const remote = (row.remote ?? null) as SyncRecord | null;
  row.kind = 'record';
  row.item_id = itemIdOf(collection, local ?? remote, id);
  row.attribute_id = collection === 'value' && id.includes('.') ? id.slice(id.indexOf('.') + 1) : null;
  row.field = null;
  row.text = false;
  row.mine = local;
  row.theirs = remote;
  row.base = null;
  row.theirs_by = null;
  row.theirs_at = typeof remote?.updated_at === 'string' ? remote.updated_at : null;
  row.theirs_row_version = remote ? remote.row_version : null;
  row.local = local;
  row.remote = remote;
}

/** Tables of unsynced work: a version may add indexes to them but never drop them. */
export const DURABLE_TABLES = ['drafts', 'conflicts', 'failedRequests', 'refusedEdits'] as const;

export function latestSchema() {
  return DB_VERSIONS[DB_VERSIONS.length - 1]!;
}

/** A short hash of the schema, kept in meta so a mismatch can be noticed after an update. */
export function schemaHash(): string {
  const text = JSON.stringify(DB_VERSIONS.map((v) => [v.version, v.stores])) + dexieRecordsStore;
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return (h >>> 0).toString(36);
}

/** Another IndexedDB than the global one (tests simulate several devices in one process). */
export interface IdbFactories {
  indexedDB: IDBFactory;
  IDBKeyRange: typeof IDBKeyRange;
}

export { dbNameFor };

export class CairnDexie extends Dexie {
  records!: Table<StoredRecord, [string, string]>;
  drafts!: Table<DraftEntry, [string, string]>;
  conflicts!: Table<ConflictEntry, number>;
  failedRequests!: Table<QueuedRequest, string>;
  refusedEdits!: Table<RefusedEdit, [string, string]>;
  meta!: Table<MetaEntry, string>;

  constructor(name: string, durability: 'strict' | 'default' | 'relaxed', idb?: IdbFactories) {
    super(name, { chromeTransactionDurability: durability, ...(idb ?? {}) });
    for (const v of DB_VERSIONS) {
      const version = this.version(v.version).stores(v.stores);
      if (v.upgrade) version.upgrade(v.upgrade);
    }
    // Every write to `records` is told to the streams running as it is issued (record-writes.ts).
    this.use(recordWritesMiddleware(name));
  }
}

/**
 * The worker's handle: the same database opened twice. `strict` carries every write that holds
 * user work (a save writes the record and its request in one strict transaction); `relaxed`
 * carries cache writes (index loads, deltas, realtime copies), which may be lost in a crash.
 */
export interface UserDb {
  name: string;
  strict: CairnDexie;
  relaxed: CairnDexie;
  close(): void;
}

export async function openUserDb(userId: number | string, idb?: IdbFactories): Promise<UserDb> {
  const name = dbNameFor(userId);
  const strict = new CairnDexie(name, 'strict', idb);
  await strict.open();
  const relaxed = new CairnDexie(name, 'relaxed', idb);
  await relaxed.open();
  const hash = schemaHash();
  const stored = await relaxed.meta.get('schema');
  if (stored?.value !== hash) await relaxed.meta.put({ key: 'schema', value: hash });
  return {
    name,
    strict,
    relaxed,
    close() {
      strict.close();
      relaxed.close();
    },
  };
}

/** What tabs use for useLiveQuery reads. They never write: the worker is the one writer. */
export function openReadonlyDb(userId: number | string, idb?: IdbFactories): CairnDexie {
  return new CairnDexie(dbNameFor(userId), 'default', idb);
}

/**
 * A tiny database outside any user's: which user was signed in, so a restarted worker reopens
 * that user's database (the token itself stays in that database's meta).
 */
export class DirectoryDexie extends Dexie {
  current!: Table<{ key: 'current'; userId: number | string }, string>;
  constructor(idb?: IdbFactories) {
    super('cairn-directory', { chromeTransactionDurability: 'strict', ...(idb ?? {}) });
    this.version(1).stores({ current: 'key' });
  }
}

export function isQuotaError(error: unknown): boolean {
  for (let e = error as { name?: string; inner?: unknown } | undefined, i = 0; e && i < 5; e = e.inner as typeof e, i++) {
    if (e.name === 'QuotaExceededError') return true;
  }
  return false;
}
