import { itemOfValueId } from '../../../schema/records';
import type { CairnDexie } from '../../../sync-worker/client';
import { onRecordsChanged, type RecordChange } from './record-lists';

/**
 * The values of the items on screen (table, list and column rows), kept in the tab per item and
 * updated in place (decision 0295). A window asks for its items; only those not held yet are read
 * (in one transaction), so scrolling reads each new block of rows once instead of
 * re-reading the whole window as a live query did (Dexie recorded every key it read on every
 * scroll, which was most of a scrolled frame). After that, a write names the values it changed
 * (record-lists.ts `onRecordsChanged`) and only the items they belong to are read again.
 *
 * At most MAX_ITEMS items are held: the oldest not on any screen are let go first, so a
 * 100,000-item board scrolled end to end does not keep its whole value table in the tab.
 */

export const MAX_ITEMS = 4096;

type Values = Map<string, unknown>;
const EMPTY: Values = new Map();

export class WindowValues {
  private readonly byItem = new Map<string, Values>();
  /** Row versions of the values held, by value id (pending.ts compares against them). */
  readonly versions = new Map<string, number>();
  private readonly reading = new Set<string>();
  /** Items written while their read was in flight: read again once it lands. */
  private readonly again = new Set<string>();
  /** What each window on screen asks for (never let go while asked). */
  private readonly windows = new Map<object, readonly string[]>();
  private readonly listeners = new Set<() => void>();
  private current = 0;
  /** Index reads so far (tests). */
  reads = 0;

  constructor(private readonly db: CairnDexie) {
    // Followed from the start: a write between a read and the first subscriber is not missed.
    onRecordsChanged(db.name, (change) => this.changed(change));
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** Changes whenever a held item's values change or newly arrive. */
  version = (): number => this.current;

  /** The values of an item as held (undefined: not read yet). The same Map until one of them changes. */
  get(itemId: string): Values | undefined {
    return this.byItem.get(itemId);
  }

  /** `owner`'s window is these items: reads the ones not held yet. */
  show(owner: object, itemIds: readonly string[]): void {
    this.windows.set(owner, itemIds);
    const missing = itemIds.filter((id) => !this.byItem.has(id) && !this.reading.has(id));
    if (missing.length) void this.read(missing);
  }

  /** `owner`'s window is gone (unmounted). */
  hide(owner: object): void {
    this.windows.delete(owner);
  }

  private changed(change: RecordChange): void {
    if (change.all) {
      // Dexie could not name the keys (a bulk write): read every window again.
      const held = [...this.byItem.keys()];
      const shown = new Set([...this.windows.values()].flat());
      for (const id of held) if (!shown.has(id)) this.byItem.delete(id);
      this.reread([...shown]);
      return;
    }
    const items = new Set<string>();
    for (const [collection, id] of change.keys) if (collection === 'value') items.add(itemOfValueId(id));
    this.reread([...items].filter((id) => this.byItem.has(id) || this.reading.has(id)));
  }

  private reread(ids: string[]): void {
    const now: string[] = [];
    for (const id of ids) (this.reading.has(id) ? this.again.add(id) : now.push(id));
    if (now.length) void this.read(now);
  }

  private async read(ids: string[]): Promise<void> {
    for (const id of ids) this.reading.add(id);
    this.reads++;
    let rows: { id: string; item_id: string; attribute_id: string; value: unknown; row_version: number }[] = [];
    try {
      // One getAll per item in one transaction: an item's values are one range of the index.
      // (`anyOf` walks a cursor, one round trip per record and per jump: most of a scroll's reads.)
      const records = this.db.records;
      const parts = await this.db.transaction('r', records, () => Promise.all(ids.map((id) => records.where('[collection+item_id]').equals(['value', id]).toArray())));
      rows = parts.flat() as unknown as typeof rows;
    } catch {
      for (const id of ids) this.reading.delete(id);
      return;
    }
    const next = new Map<string, Values>();
    for (const id of ids) next.set(id, new Map());
    for (const row of rows) {
      next.get(row.item_id)?.set(row.attribute_id, row.value);
      this.versions.set(row.id, row.row_version);
    }
    let changed = false;
    const redo: string[] = [];
    for (const [id, values] of next) {
      this.reading.delete(id);
      if (this.again.delete(id)) redo.push(id);
      const before = this.byItem.get(id);
      // Versions of values that are gone.
      if (before) for (const attribute of before.keys()) if (!values.has(attribute)) this.versions.delete(`${id}.${attribute}`);
      if (before && sameValues(before, values)) continue;
      this.byItem.delete(id);
      this.byItem.set(id, values);
      changed = true;
    }
    this.evict();
    if (changed) {
      this.current++;
      for (const listener of [...this.listeners]) listener();
    }
    if (redo.length) void this.read(redo);
  }

  private evict(): void {
    if (this.byItem.size <= MAX_ITEMS) return;
    const shown = new Set([...this.windows.values()].flat());
    for (const [id, values] of this.byItem) {
      if (this.byItem.size <= MAX_ITEMS) break;
      if (shown.has(id)) continue;
      this.byItem.delete(id);
      for (const attribute of values.keys()) this.versions.delete(`${id}.${attribute}`);
    }
  }
}

export function sameValues(a: Values, b: Values): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const [k, v] of a) {
    if (!b.has(k)) return false;
    const w = b.get(k);
    if (v === w) continue;
    if (typeof v !== 'object' || typeof w !== 'object' || JSON.stringify(v) !== JSON.stringify(w)) return false;
  }
  return true;
}

const caches = new Map<CairnDexie, WindowValues>();

/** The one cache of a replica handle. */
export function windowValuesOf(db: CairnDexie): WindowValues {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new WindowValues(db)));
  return cache;
}

export { EMPTY as NO_VALUES };
