/**
 * The small transaction a mutator runs against (decision 0100). Reads see the mutator's own
 * writes; writes are only collected here. The engine then stores every collected write, its
 * queued request and the before-images in ONE strict Dexie transaction, and the queue sends them
 * as ONE request (a transaction batch when there are several): an action lands whole or not at all.
 *
 * Mutators never set row_version: the engine stamps it from the stored copy.
 */
import type { SyncRecord } from '../types';

/** A refused action: the input breaks a rule the user can fix (shown next to the editor). */
export class MutationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MutationError';
  }
}

export interface MutationTx {
  /** The workspace the action writes in. */
  readonly teamId: number;
  get(collection: string, id: string): Promise<SyncRecord | null>;
  /** The value records of one item (with this action's writes laid over them). */
  valuesOf(itemId: string): Promise<SyncRecord[]>;
  /** Creates or replaces a record (row_version is ignored). */
  put(collection: string, record: SyncRecord): void;
  /** Removes a record (items, folders and attributes go to the server's trash). */
  delete(collection: string, id: string): void;
  /** Brings back a record the server holds in its trash, as `record` shows it. */
  restore(collection: string, record: SyncRecord): void;
}

export type Mutator<Args> = (tx: MutationTx, args: Args) => Promise<void>;

export type BufferedWrite =
  | { kind: 'put'; collection: string; id: string; record: SyncRecord }
  | { kind: 'delete'; collection: string; id: string }
  | { kind: 'restore'; collection: string; id: string; record: SyncRecord };

/** Where a buffered transaction reads what it has not written itself. */
export interface MutationReader {
  get(collection: string, id: string): Promise<SyncRecord | null>;
  valuesOf(itemId: string): Promise<SyncRecord[]>;
}

const keyOf = (collection: string, id: string) => `${collection}\u0000${id}`;

/** What a mutator read: each record's row_version (null: absent) and each item's value list. */
export interface ReadSet {
  records: { collection: string; id: string; version: number | null }[];
  values: { itemId: string; signature: string }[];
}

/** The value list of an item as one comparable string (ids and versions). */
export const valuesSignature = (values: SyncRecord[]) => values.map((v) => `${v.id}@${v.row_version}`).sort().join(',');

/**
 * Collects a mutator's writes in order (one per record: a later write of a record replaces it)
 * and remembers what it read, so the engine can check, inside its write transaction, that nothing
 * it read changed since (and run the mutator again if it did). The mutator itself runs outside the
 * IndexedDB transaction: Dexie loses a transaction across the native awaits of plain async code.
 */
export class BufferedTx implements MutationTx {
  private readonly buffer = new Map<string, BufferedWrite>();
  private readonly reads = new Map<string, ReadSet['records'][number]>();
  private readonly valueReads = new Map<string, string>();

  constructor(
    readonly teamId: number,
    private readonly reader: MutationReader,
  ) {}

  async get(collection: string, id: string): Promise<SyncRecord | null> {
    const written = this.buffer.get(keyOf(collection, id));
    if (written) return written.kind === 'delete' ? null : { ...written.record };
    const found = await this.reader.get(collection, id);
    const key = keyOf(collection, id);
    if (!this.reads.has(key)) this.reads.set(key, { collection, id, version: found?.row_version ?? null });
    return found;
  }

  async valuesOf(itemId: string): Promise<SyncRecord[]> {
    const stored = await this.reader.valuesOf(itemId);
    if (!this.valueReads.has(itemId)) this.valueReads.set(itemId, valuesSignature(stored));
    const byId = new Map(stored.map((v) => [v.id, v] as const));
    for (const write of this.buffer.values()) {
      if (write.collection !== 'value') continue;
      if (write.kind === 'delete') byId.delete(write.id);
      else if (write.record.item_id === itemId) byId.set(write.id, write.record);
    }
    return [...byId.values()];
  }

  put(collection: string, record: SyncRecord): void {
    this.set({ kind: 'put', collection, id: record.id, record: { ...record, team_id: record.team_id ?? this.teamId } });
  }

  delete(collection: string, id: string): void {
    this.set({ kind: 'delete', collection, id });
  }

  restore(collection: string, record: SyncRecord): void {
    this.set({ kind: 'restore', collection, id: record.id, record });
  }

  readSet(): ReadSet {
    return { records: [...this.reads.values()], values: [...this.valueReads].map(([itemId, signature]) => ({ itemId, signature })) };
  }

  /** The writes, in the order of their first write. */
  writes(): BufferedWrite[] {
    return [...this.buffer.values()];
  }

  private set(write: BufferedWrite): void {
    if (!write.id) throw new MutationError('A record needs an id.');
    // Map keeps the first insertion's place: a record written twice stays where it began.
    this.buffer.set(keyOf(write.collection, write.id), write);
  }
}
