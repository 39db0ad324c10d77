import Papa from 'papaparse';
import { FORMULA_START } from '../../schema/csv-formula';
import { sql } from 'kysely';
import { builtinAttribute, compareValues, filterItems, valueFor, type AttributeRef } from '../../schema/filters';
import { HIDDEN_REFERENCE, readableValue, UTF8_BOM, type ExportLookup } from '../../schema/csv-export';
import { canSeeView, viewSettingsOf, type ViewSettings } from '../../schema/views';
import type { Db, StoredRecord } from '../sync/store';
import { boardRecords } from '../sync/store';
import type { ReadView } from '../sync/reads';
import { allowed } from '../sync/access';

/**
 * CSV of a view as shown (decision 0161): its folder's items (and its subfolders' when the view
 * includes them), its filters and sort, its columns in its order without the hidden ones, values
 * as readable text (schema/csv-export.ts), UTF-8 with a byte order mark, CRLF lines. Built from
 * the records the reader may read (the read rule of server/sync/reads.ts).
 */

/** Kinds that hold nothing to export (actions and derived figures). */
const NOT_EXPORTED = new Set(['button', 'time-tracking', 'custom-id']);

export interface Item {
  id: string;
  name: string;
  folder_id: string;
  position: number;
  created_at: string | null;
  created_by: number | null;
}

export interface ExportedView {
  fileName: string;
  /** The CSV in parts (a header part, then parts of up to 1,000 rows). */
  parts: () => Generator<string>;
  rows: number;
}

/**
 * Null when the reader may not see the view (a personal view of someone else) or it is not on the
 * board. `{folderId}` instead of a view: the folder's default table (no view saved yet).
 */
export async function exportView(db: Db, view: ReadView, teamId: number, boardId: string, which: { viewId: string } | { folderId: string }): Promise<ExportedView | null> {
  const shownView = await readShownView(db, view, teamId, boardId, which);
  if (!shownView) return null;
  const { shown, header, cell } = shownView;
  const fileName = `${safeFileName(shownView.name)}.csv`;
  return {
    fileName,
    rows: shown.length,
    *parts() {
      // Cells a spreadsheet would evaluate get a leading ' (N6); the import takes it off (csv-parse.ts).
      yield UTF8_BOM + Papa.unparse([header], { newline: '\r\n', escapeFormulae: FORMULA_START }) + '\r\n';
      for (let i = 0; i < shown.length; i += 1000) {
        const chunk = shown.slice(i, i + 1000).map((item) => shownView.columns.map((a) => cell(item, a)));
        yield Papa.unparse(chunk, { newline: '\r\n', escapeFormulae: FORMULA_START }) + '\r\n';
      }
    },
  };
}

/** A name fit for a file (letters, digits, spaces, dots, dashes), at most 80 characters. */
export function safeFileName(name: string): string {
  return String(name || 'export').replace(/[^\p{L}\p{N} ._-]+/gu, '_').slice(0, 80);
}

export type ShownAttribute = AttributeRef & { hidden?: boolean; position?: number; created_at?: string };

/** A view as shown, read once: the CSV export writes it as CSV, the PDF export (decision 0225) as a table. */
export interface ShownView {
  name: string;
  folderId: string;
  settings: ViewSettings;
  /** Every live attribute of the board by id (filters and sort name them). */
  attributes: ReadonlyMap<string, ShownAttribute>;
  columns: ShownAttribute[];
  header: string[];
  shown: Item[];
  /** A cell as readable text (of a shown column; only those values, and the filters' and sort's, are read). */
  cell: (item: Item, attribute: ShownAttribute) => string;
  /** Any value of an attribute as readable text (a filter's value). */
  valueText: (attribute: AttributeRef, value: unknown) => string;
}

/** The view's rows as shown (filters, sort, columns), as the reader may read them; null when they may not see the view. */
export async function readShownView(db: Db, view: ReadView, teamId: number, boardId: string, which: { viewId: string } | { folderId: string }): Promise<ShownView | null> {
  let record: { folder_id: string; name: string; visibility?: string; owner_id?: number | null; settings?: unknown };
  if ('viewId' in which) {
    const viewRow = (await boardRecords(db, teamId, boardId, 'folder_view')).find((r) => r.id === which.viewId && !r.deleted_at);
    if (!viewRow) return null;
    record = viewRow.data as unknown as typeof record;
  } else {
    const folder = (await boardRecords(db, teamId, boardId, 'folder')).find((r) => r.id === which.folderId && !r.deleted_at);
    if (!folder) return null;
    record = { folder_id: folder.id, name: String(folder.data.name ?? 'export'), settings: {} };
  }
  const folderId = String(record.folder_id);
  if (!view.canViewIn(folderId, boardId)) return null;
  const chain = view.chain(folderId) ?? [];
  const actor = {
    userId: view.viewer.id ?? null,
    isWorkspaceOwner: view.viewer.role === 'owner',
    canEditLocked: allowed(view.viewer, 'EDIT_LOCKED_VIEWS', chain),
    canCustomize: allowed(view.viewer, 'CUSTOMIZE_VIEW', chain),
  };
  if (!canSeeView({ visibility: (record.visibility ?? 'shared') as 'shared', owner_id: record.owner_id ?? null }, actor)) return null;
  const settings = viewSettingsOf(record.settings);

  const [attributeRows, folderRows] = await Promise.all([boardRecords(db, teamId, boardId, 'attribute'), boardRecords(db, teamId, boardId, 'folder')]);
  // Only attributes the reader may read (one defined on a folder hidden from them is not a column, N5).
  const attributes = attributeRows.filter((r) => !r.deleted_at && view.canViewIn(String(r.data.folder_id ?? boardId), boardId)).map((r) => ({ ...(r.data as object), id: r.id }) as ShownAttribute);
  const byId = new Map(attributes.map((a) => [a.id, a] as const));
  const columns = orderedColumns(attributes, settings).filter((a) => !NOT_EXPORTED.has(String(a.kind)));
  // Only the values that are written or decide which rows and in what order: the columns', the filters' and the sort's attributes.
  const needed = new Set([...columns.map((a) => a.id), ...settings.filters.map((f) => f.attribute_id), ...settings.sort.map((r) => r.attribute_id)].filter((id) => byId.has(id)));
  const [itemRows, values] = await Promise.all([readItems(db, teamId, boardId), readValues(db, teamId, boardId, [...needed])]);
  const folders = includedFolders(folderRows, folderId, settings, (id) => view.canViewIn(id, boardId));
  const items: Item[] = itemRows.filter((i) => folders.has(i.folder_id));
  const get = (itemId: string, attributeId: string) => values.get(attributeId)?.get(itemId) ?? null;

  const shown = sortItems(filterItems(items, settings.filters, settings.match, byId, get), settings, byId, get);
  // A reference to an item the reader may not read is written as a neutral mark (N5).
  const lookup = await lookupWith(db, teamId, new Map(itemRows.map((i) => [i.id, view.canViewIn(i.folder_id, boardId) ? i.name : HIDDEN_REFERENCE])));
  return {
    name: String(record.name || 'export'),
    folderId,
    settings,
    attributes: byId,
    columns,
    header: columns.map((a) => String(a.name ?? '')),
    shown,
    cell: (item, a) => readableValue(a, valueFor(item, a, get), lookup),
    valueText: (a, value) => readableValue(a, value, lookup),
  };
}

/**
 * The board's live items, only the fields an export uses (not whole records): for 100,000 items
 * the database sends a few fields each instead of every record's JSON. Same conversions as the
 * records' data would get (a name as text, a position as a number).
 */
async function readItems(db: Db, teamId: number, boardId: string): Promise<Item[]> {
  const rows = await db
    .selectFrom('records')
    .select(['id', 'created_by', sql<unknown>`data->'name'`.as('name'), sql<unknown>`data->'folder_id'`.as('folder_id'), sql<unknown>`data->'position'`.as('position'), sql<unknown>`data->'created_at'`.as('created_at')])
    .where('team_id', '=', teamId)
    .where('board_id', '=', boardId)
    .where('collection', '=', 'item')
    .where('deleted_at', 'is', null)
    .execute();
  return rows.map((r) => ({ id: r.id, name: String(r.name ?? ''), folder_id: String(r.folder_id), position: Number(r.position) || 0, created_at: (r.created_at as string) ?? null, created_by: r.created_by }));
}

/**
 * The values of some attributes, by attribute then item. Of each value record only its item,
 * attribute and value (a 100,000 × 10 board holds a million value records: whole records were
 * most of the export's time), and only the attributes asked for. (Grouping them into one row per
 * item or per attribute in the database was measured slower: its JSON aggregates cost more than
 * the rows they save.)
 */
async function readValues(db: Db, teamId: number, boardId: string, attributeIds: string[]): Promise<Map<string, Map<string, unknown>>> {
  const out = new Map<string, Map<string, unknown>>(attributeIds.map((id) => [id, new Map()]));
  if (attributeIds.length === 0) return out;
  const rows = await db
    .selectFrom('records')
    .select([sql<string>`data->>'item_id'`.as('item_id'), sql<string>`data->>'attribute_id'`.as('attribute_id'), sql<unknown>`data->'value'`.as('value')])
    .where('team_id', '=', teamId)
    .where('board_id', '=', boardId)
    .where('collection', '=', 'value')
    .where('deleted_at', 'is', null)
    .where(sql<string>`data->>'attribute_id'`, 'in', attributeIds)
    .execute();
  for (const v of rows) out.get(v.attribute_id)?.set(v.item_id, v.value);
  return out;
}

/** The view's folder, and its subfolders (those the reader may see) when the view includes them. */
function includedFolders(rows: StoredRecord[], folderId: string, settings: ViewSettings, visible: (id: string) => boolean): Set<string> {
  const out = new Set([folderId]);
  if (!settings.include_subfolders) return out;
  const live = rows.filter((r) => !r.deleted_at);
  let added = true;
  while (added) {
    added = false;
    for (const r of live) {
      if (!out.has(r.id) && out.has(String(r.data.parent_id)) && visible(r.id)) {
        out.add(r.id);
        added = true;
      }
    }
  }
  return out;
}

/** The same order as the board's views (src/boards/model/query.ts sortItems, then position, creation, id). */
function sortItems(items: Item[], settings: ViewSettings, byId: ReadonlyMap<string, AttributeRef>, get: (i: string, a: string) => unknown): Item[] {
  const rules = settings.sort.map((r) => ({ rule: r, attribute: byId.get(r.attribute_id) ?? builtinAttribute(r.attribute_id) })).filter((r) => r.attribute);
  const keyed = items.map((item) => ({ item, values: rules.map((r) => valueFor(item, r.attribute!, get)) }));
  keyed.sort((x, y) => {
    for (let i = 0; i < rules.length; i++) {
      const c = compareValues(rules[i]!.attribute!, x.values[i], y.values[i], rules[i]!.rule.direction);
      if (c !== 0) return c;
    }
    return byPosition(x.item, y.item);
  });
  return keyed.map((k) => k.item);
}

function byPosition(a: { id: string; position?: number; created_at?: string | null }, b: { id: string; position?: number; created_at?: string | null }): number {
  const pa = a.position ?? 0;
  const pb = b.position ?? 0;
  if (pa !== pb) return pa - pb;
  const ca = a.created_at ?? '';
  const cb = b.created_at ?? '';
  if (ca !== cb) return ca < cb ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The Table view's columns (src/boards/model/columns.ts orderedColumns): primary first, then the view's order, hidden ones left out. */
function orderedColumns<A extends AttributeRef & { hidden?: boolean; position?: number; created_at?: string }>(attributes: A[], settings: ViewSettings): A[] {
  const primary = attributes.filter((a) => a.kind === 'primary').sort(byPosition).slice(0, 1);
  const rank = new Map(settings.column_order.map((id, i) => [id, i]));
  const hidden = new Set(settings.hidden_columns);
  const rest = attributes
    .filter((a) => a.kind !== 'primary' && !a.hidden && !hidden.has(a.id))
    .sort((a, b) => {
      const ra = rank.get(a.id);
      const rb = rank.get(b.id);
      if (ra !== undefined && rb !== undefined) return ra - rb;
      if (ra !== undefined) return -1;
      if (rb !== undefined) return 1;
      return byPosition(a, b);
    });
  return [...primary, ...rest];
}

/** The lookup of an export read by `view`: items it may not read are named by a neutral mark (N5). */
export async function lookupFor(db: Db, teamId: number, itemRows: StoredRecord[], view: ReadView): Promise<ExportLookup> {
  return lookupWith(db, teamId, new Map(itemRows.map((r) => [r.id, view.canViewIn(String(r.data.folder_id), r.board_id) ? String(r.data.name ?? '') : HIDDEN_REFERENCE])));
}

/** Members' names of the workspace, and item names from `itemNames`. */
async function lookupWith(db: Db, teamId: number, itemNames: ReadonlyMap<string, string>): Promise<ExportLookup> {
  const users = await db
    .selectFrom('team_members')
    .innerJoin('users', 'users.id', 'team_members.user_id')
    .select(['users.id', 'users.name', 'users.email'])
    .where('team_members.team_id', '=', teamId)
    .execute();
  const names = new Map(users.map((u) => [u.id, u.name || u.email]));
  return { userName: (id) => names.get(id), itemName: (id) => itemNames.get(id) };
}
