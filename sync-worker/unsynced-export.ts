/**
 * "Download unsynced changes" (issue #30 part 7, decision 0350): the user's unsynced work as one
 * JSON file for testers and support, and what `npm run replay` reads back. Pure: the engine reads
 * the tables (engine.exportUnsynced) and hands the rows here; the replay tool parses them here.
 *
 * What goes in: the queue (every request the server has not answered, in send order), drafts,
 * conflict rows, refused edits, the local copies those records have now, and the replica's schema
 * (Dexie version and hash). What never goes in: the `meta` table's session (the token record) or
 * anything else of `meta` but the schema and the server's identity, and any field named like a
 * token, secret or password anywhere in the rows (removed, counted in `redacted`).
 *
 * The shape only grows (new fields are optional); `format_version` changes on anything else.
 */
import type { ConflictEntry, DraftEntry, QueuedRequest, RefusedEdit, SyncRecord } from './types';

export const UNSYNCED_FORMAT = 'cairn-unsynced-changes';
export const UNSYNCED_FORMAT_VERSION = 1;

export interface UnsyncedExport {
  format: typeof UNSYNCED_FORMAT;
  format_version: number;
  exported_at: string;
  user_id: number;
  replica: {
    /** The Dexie database name (`cairn-{userId}`). */
    database: string;
    /** The Dexie schema version the rows were read with (db.ts DB_VERSIONS). */
    schema_version: number;
    /** The schema hash (db.ts schemaHash), to tell two builds with the same version apart. */
    schema_hash: string;
    /** The identity of the server database the replica was loaded from (decision 0102), if known. */
    server_id: string | null;
  };
  /** failedRequests, in send order (seq): what the worker will send when it is online. */
  queue: QueuedRequest[];
  drafts: DraftEntry[];
  conflicts: ConflictEntry[];
  refused: RefusedEdit[];
  /** The local copies of the records named above, as the replica holds them now. */
  records: { collection: string; record: SyncRecord }[];
  /** How many fields named like a secret were removed (0 in a healthy file). */
  redacted: number;
}

/** Field names never written to the file, wherever they appear. */
const SECRET_KEY = /(^|_)(access_token|refresh_token|token|secret|password|api_key|authorization|cookie)s?$/i;

/** A deep copy without fields named like secrets; counts what it dropped. */
export function withoutSecrets<T>(value: T, counter: { n: number }): T {
  if (Array.isArray(value)) return value.map((v) => withoutSecrets(v, counter)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      if (SECRET_KEY.test(key)) {
        counter.n += 1;
        continue;
      }
      out[key] = withoutSecrets(v, counter);
    }
    return out as T;
  }
  return value;
}

export interface ExportRows {
  userId: number;
  database: string;
  schemaVersion: number;
  schemaHash: string;
  serverId: string | null;
  queue: QueuedRequest[];
  drafts: DraftEntry[];
  conflicts: ConflictEntry[];
  refused: RefusedEdit[];
  records: { collection: string; record: SyncRecord }[];
  now: number;
}

export function buildUnsyncedExport(rows: ExportRows): UnsyncedExport {
  const counter = { n: 0 };
  const clean = <T>(v: T) => withoutSecrets(v, counter);
  const file: UnsyncedExport = {
    format: UNSYNCED_FORMAT,
    format_version: UNSYNCED_FORMAT_VERSION,
    exported_at: new Date(rows.now).toISOString(),
    user_id: rows.userId,
    replica: { database: rows.database, schema_version: rows.schemaVersion, schema_hash: rows.schemaHash, server_id: rows.serverId },
    queue: clean([...rows.queue].sort((a, b) => a.seq - b.seq)),
    drafts: clean(rows.drafts),
    conflicts: clean(rows.conflicts),
    refused: clean(rows.refused),
    records: clean(rows.records),
    redacted: 0,
  };
  file.redacted = counter.n;
  return file;
}

/** The [collection, id] pairs whose local copies the file carries. */
export function recordKeysOf(queue: QueuedRequest[], drafts: DraftEntry[], conflicts: ConflictEntry[], refused: RefusedEdit[]): [string, string][] {
  const keys = new Map<string, [string, string]>();
  const add = (collection: string, id: string) => keys.set(`${collection}\u0000${id}`, [collection, id]);
  for (const r of queue) add(r.collection, r.id);
  for (const d of drafts) add(d.collection, d.id);
  for (const c of conflicts) add(c.collection, c.id);
  for (const r of refused) add(r.collection, r.id);
  return [...keys.values()];
}

export class UnsyncedFileError extends Error {}

/**
 * Reads a file back (the replay tool): checks its format and that this build can load its replica
 * schema. Throws UnsyncedFileError naming the field that is wrong.
 */
export function parseUnsyncedExport(text: string, latestSchemaVersion: number): UnsyncedExport {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new UnsyncedFileError(`not JSON: ${(error as Error).message}`);
  }
  const file = data as Partial<UnsyncedExport> | null;
  if (!file || typeof file !== 'object') throw new UnsyncedFileError('not an object');
  if (file.format !== UNSYNCED_FORMAT) throw new UnsyncedFileError(`format: expected "${UNSYNCED_FORMAT}"`);
  if (file.format_version !== UNSYNCED_FORMAT_VERSION) throw new UnsyncedFileError(`format_version: ${String(file.format_version)} is not ${UNSYNCED_FORMAT_VERSION}`);
  if (typeof file.user_id !== 'number') throw new UnsyncedFileError('user_id: must be a number');
  const version = file.replica?.schema_version;
  if (typeof version !== 'number') throw new UnsyncedFileError('replica.schema_version: must be a number');
  if (version > latestSchemaVersion) throw new UnsyncedFileError(`replica.schema_version: ${version} is newer than this build's ${latestSchemaVersion}; replay with the app version that made the file`);
  for (const key of ['queue', 'drafts', 'conflicts', 'refused', 'records'] as const) {
    if (!Array.isArray(file[key])) throw new UnsyncedFileError(`${key}: must be a list`);
  }
  return file as UnsyncedExport;
}
