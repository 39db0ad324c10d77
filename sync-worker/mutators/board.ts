/**
 * The board's named mutators (decision 0100): one per user action, pure over a MutationTx. The
 * worker runs them (engine.apply), so does the in-tab engine of guests, and so do tests. Positions
 * come in computed by the caller (it holds the sorted lists); everything read to build a record is
 * read here, inside the action's transaction.
 */
import { checkValue, type AttributeLike } from '../../schema/attributes';
import { valueIdFor } from '../../schema/records';
import type { SyncRecord } from '../types';
import { MutationError, type MutationTx, type Mutator } from './transaction';

export interface NewRecord {
  collection: string;
  record: SyncRecord;
}

export interface PositionUpdate {
  id: string;
  position: number;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

async function existing(tx: MutationTx, collection: string, id: string): Promise<SyncRecord> {
  const found = await tx.get(collection, id);
  if (!found) throw new MutationError(`The ${collection} is no longer there.`);
  return found;
}

async function attributeOf(tx: MutationTx, attributeId: string): Promise<AttributeLike & SyncRecord> {
  return (await existing(tx, 'attribute', attributeId)) as AttributeLike & SyncRecord;
}

/** The checked value for an attribute, or a MutationError with the message to show. */
function checked(attribute: AttributeLike, raw: unknown): unknown {
  const result = checkValue(attribute, raw);
  if (!result.ok) throw new MutationError(result.message);
  return result.value;
}

function valueRecord(tx: MutationTx, item: SyncRecord, attributeId: string, value: unknown): SyncRecord {
  return { id: valueIdFor(item.id, attributeId), team_id: tx.teamId, board_id: item.board_id, item_id: item.id, attribute_id: attributeId, value, row_version: 0 };
}

/** Writes one item's value unless it already holds it. */
async function writeValue(tx: MutationTx, item: SyncRecord, attribute: AttributeLike & SyncRecord, value: unknown): Promise<void> {
  if (attribute.kind === 'primary') {
    if (item.name !== value) tx.put('item', { ...item, name: String(value ?? '') });
    return;
  }
  const current = await tx.get('value', valueIdFor(item.id, attribute.id));
  if (current ? same(current.value, value) : value === null) return;
  tx.put('value', current ? { ...current, value } : valueRecord(tx, item, attribute.id, value));
}

/** New records (a folder, an attribute, a view, or a board with its first attribute and view). */
export const createRecords: Mutator<{ records: NewRecord[] }> = async (tx, { records }) => {
  for (const { collection, record } of records) {
    if (await tx.get(collection, record.id)) throw new MutationError(`The ${collection} exists already.`);
    tx.put(collection, { ...record, row_version: 0 });
  }
};

/** Changes fields of one record (rename, settings, hidden…). */
export const updateRecord: Mutator<{ collection: string; id: string; patch: Record<string, unknown> }> = async (tx, { collection, id, patch }) => {
  const current = await existing(tx, collection, id);
  tx.put(collection, { ...current, ...patch, id });
};

/** A new item with its first values, checked against their attributes. */
export const createItem: Mutator<{ item: SyncRecord; values?: Record<string, unknown> }> = async (tx, { item, values = {} }) => {
  if (await tx.get('item', item.id)) throw new MutationError('The item exists already.');
  tx.put('item', { ...item, row_version: 0 });
  for (const [attributeId, raw] of Object.entries(values)) {
    const value = checked(await attributeOf(tx, attributeId), raw);
    if (value !== null) tx.put('value', valueRecord(tx, item, attributeId, value));
  }
};

/** One value on one or many items (an inline edit, a bulk edit); the primary attribute renames. */
export const setValues: Mutator<{ itemIds: string[]; attributeId: string; value: unknown }> = async (tx, { itemIds, attributeId, value }) => {
  const attribute = await attributeOf(tx, attributeId);
  const clean = checked(attribute, value);
  for (const itemId of itemIds) await writeValue(tx, await existing(tx, 'item', itemId), attribute, clean);
};

/** Several values of one item as one action (a gantt bar's start and end dates move together). */
export const setItemValues: Mutator<{ itemId: string; values: Record<string, unknown> }> = async (tx, { itemId, values }) => {
  for (const [attributeId, raw] of Object.entries(values)) {
    const attribute = await attributeOf(tx, attributeId);
    await writeValue(tx, await existing(tx, 'item', itemId), attribute, checked(attribute, raw));
  }
};

/** A card dropped in a column: its group value and/or its position. */
export const moveCard: Mutator<{ itemId: string; group: { attributeId: string; value: unknown } | null; position: number | null }> = async (tx, { itemId, group, position }) => {
  const item = await existing(tx, 'item', itemId);
  if (group) {
    const attribute = await attributeOf(tx, group.attributeId);
    await writeValue(tx, item, attribute, checked(attribute, group.value));
  }
  if (position !== null && item.position !== position) tx.put('item', { ...((await tx.get('item', itemId)) ?? item), position });
};

/** Items into a folder, one after another from `firstPosition`. */
export const moveItems: Mutator<{ itemIds: string[]; folderId: string; firstPosition: number }> = async (tx, { itemIds, folderId, firstPosition }) => {
  let position = firstPosition;
  for (const id of itemIds) tx.put('item', { ...(await existing(tx, 'item', id)), folder_id: folderId, position: position++ });
};

/** New positions within one list. */
export const reorder: Mutator<{ collection: string; updates: PositionUpdate[] }> = async (tx, { collection, updates }) => {
  for (const u of updates) {
    const current = await tx.get(collection, u.id);
    if (current && current.position !== u.position) tx.put(collection, { ...current, position: u.position });
  }
};

/** A folder to a new parent and place, with the siblings a renumbering moved. */
export const moveFolder: Mutator<{ id: string; parentId: string; position: number; siblings: PositionUpdate[] }> = async (tx, { id, parentId, position, siblings }) => {
  if (id === parentId) throw new MutationError('A folder cannot go into itself.');
  tx.put('folder', { ...(await existing(tx, 'folder', id)), parent_id: parentId, position });
  await reorder(tx, { collection: 'folder', updates: siblings.filter((s) => s.id !== id) });
};

/** Copies of items, each with copies of its values, right after the original. */
export const duplicateItems: Mutator<{ copies: { sourceId: string; id: string; name: string }[] }> = async (tx, { copies }) => {
  for (const copy of copies) {
    const source = await existing(tx, 'item', copy.sourceId);
    const item: SyncRecord = { id: copy.id, team_id: tx.teamId, board_id: source.board_id, folder_id: source.folder_id, name: copy.name, position: Number(source.position ?? 0) + 1e-6, row_version: 0 };
    tx.put('item', item);
    for (const v of await tx.valuesOf(source.id)) tx.put('value', valueRecord(tx, item, String(v.attribute_id), v.value));
  }
};

/** Removes records (to the trash where the collection has one). */
export const deleteRecords: Mutator<{ collection: string; ids: string[] }> = async (tx, { collection, ids }) => {
  for (const id of ids) if (await tx.get(collection, id)) tx.delete(collection, id);
};
