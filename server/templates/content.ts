import { sql } from 'kysely';
import { collections } from '../../schema/collections';
import { valueIdFor } from '../../schema/records';
import { PRIMARY_ATTRIBUTE_NAME, primaryAttributeIdFor } from '../../schema/board-defaults';
import { relativeDays, type TemplateContent } from '../../schema/templates';
import { validation } from '../http/errors';
import type { Db, WireRecord } from '../sync/store';
import type { ReadView } from '../sync/reads';
import { saveRecord } from '../sync/operations';
import type { WriteScope } from '../sync/scope';
import { allowed } from '../sync/access';

/**
 * A board (or folder) as a template content, and a template content as a new board
 * (issue #16, decision 0165). Both directions read and write through the normal paths: the
 * snapshot reads what the caller may read (ReadView), the new board is saved by the sync save path
 * as the caller (permissions, change log, domain events, realtime).
 */

/** The key the board's name attribute has in a template (each board has its own, decision 0170). */
export const PRIMARY_KEY = 'primary';

/** Kinds whose values a template leaves out: people and files of one workspace, and kinds without values. */
const KINDS_LEFT_OUT = new Set(['members', 'attachments', 'button', 'custom-id', 'time-tracking', 'primary']);
/** A duplicate stays in its workspace: it keeps people and files, and leaves out only kinds without values. */
const KINDS_WITHOUT_VALUES = new Set(['button', 'custom-id', 'time-tracking', 'primary']);
const leftOut = (sameWorkspace: boolean | undefined) => (sameWorkspace ? KINDS_WITHOUT_VALUES : KINDS_LEFT_OUT);

type Rec = WireRecord & Record<string, unknown>;

async function liveRecords(db: Db, teamId: number, boardId: string, collection: string): Promise<Rec[]> {
  const rows = await db
    .selectFrom('records')
    .select('data')
    .where('team_id', '=', teamId)
    .where('board_id', '=', boardId)
    .where('collection', '=', collection)
    .where('deleted_at', 'is', null)
    .execute();
  return rows.map((row) => row.data as Rec);
}

/**
 * The template content of a board or one of its folders (with its subfolders), as this reader
 * sees it: hidden folders, personal views of others and values they may not read stay out.
 * Attributes of the folders above a saved folder come along (they apply to it).
 */
export async function snapshotFolder(db: Db, view: ReadView, teamId: number, boardId: string, folderId: string, opts: { withItems: boolean; withValues?: boolean; withViews?: boolean; maxItems?: number; sameWorkspace?: boolean; withAutomations?: boolean; keepAbove?: boolean }): Promise<TemplateContent & { above?: { id: string; kind: string }[] }> {
  const folders = await view.filter(db, 'folder', await liveRecords(db, teamId, boardId, 'folder'));
  const byId = new Map(folders.map((f) => [f.id, f]));
  const root = byId.get(folderId);
  if (!root) throw validation(['folder_id: no such folder on this board']);
  // The saved folder's subtree, parents before children.
  const subtree: Rec[] = [root];
  for (let i = 0; i < subtree.length; i++) {
    for (const f of folders) if (f.parent_id === subtree[i]!.id) subtree.push(f);
  }
  const inTree = new Set(subtree.map((f) => f.id));
  const above = new Set<string>();
  for (let id = root.parent_id as string | null; id; id = (byId.get(id)?.parent_id as string | null) ?? null) above.add(id);

  const attributes = (await view.filter(db, 'attribute', await liveRecords(db, teamId, boardId, 'attribute'))).filter((a) => inTree.has(String(a.folder_id)) || above.has(String(a.folder_id)));
  const primary = attributes.find((a) => a.kind === 'primary');
  const kept = attributes.filter((a) => a.kind !== 'primary');
  // A folder copied within its board (decision 0226) shares the attributes above it: they stay as they are, only their values are copied.
  const aboveAttributes = opts.keepAbove ? kept.filter((a) => !inTree.has(String(a.folder_id))) : [];
  const ownAttributes = opts.keepAbove ? kept.filter((a) => inTree.has(String(a.folder_id))) : kept;
  const keptIds = new Set(kept.map((a) => a.id));

  const views = opts.withViews === false ? [] : (await view.filter(db, 'folder_view', await liveRecords(db, teamId, boardId, 'folder_view'))).filter((v) => inTree.has(String(v.folder_id)) && v.visibility !== 'personal');

  let items: Rec[] = [];
  const valuesByItem = new Map<string, Record<string, unknown>>();
  if (opts.withItems) {
    items = (await view.filter(db, 'item', await liveRecords(db, teamId, boardId, 'item'))).filter((item) => inTree.has(String(item.folder_id)));
    if (opts.maxItems !== undefined && items.length > opts.maxItems) throw validation([`items: a template holds at most ${opts.maxItems} items; save it without items`]);
    const itemIds = new Set(items.map((item) => item.id));
    const kindOf = new Map(kept.map((a) => [a.id, String(a.kind)]));
    if (opts.withValues !== false) {
      const values = await view.filter(db, 'value', await liveRecords(db, teamId, boardId, 'value'));
      for (const value of values) {
        const itemId = String(value.item_id);
        const attributeId = String(value.attribute_id);
        const kind = kindOf.get(attributeId);
        if (!itemIds.has(itemId) || !keptIds.has(attributeId) || !kind || leftOut(opts.sameWorkspace).has(kind)) continue;
        let stored: unknown = value.value;
        // References keep only items that come along.
        if (kind === 'reference') stored = Array.isArray(stored) ? stored.filter((id) => typeof id === 'string' && itemIds.has(id)) : [];
        if (stored === null || (Array.isArray(stored) && stored.length === 0)) continue;
        let map = valuesByItem.get(itemId);
        if (!map) valuesByItem.set(itemId, (map = {}));
        map[attributeId] = stored;
      }
    }
  }

  const position = (r: Rec) => (typeof r.position === 'number' ? r.position : 0);
  const renameKeys = (settings: unknown) => (primary ? replaceStrings(settings ?? {}, new Map([[primary.id, PRIMARY_KEY]])) : (settings ?? {}));
  return {
    root_id: root.id,
    folders: subtree.map((f) => ({ id: f.id, parent_id: f.id === root.id ? null : String(f.parent_id), name: String(f.name), position: f.id === root.id ? 0 : position(f), ...(opts.sameWorkspace ? accessOf(f) : f.id !== root.id ? templateAccessOf(f) : {}) })),
    attributes: ownAttributes.map((a) => ({ id: a.id, folder_id: inTree.has(String(a.folder_id)) ? String(a.folder_id) : root.id, name: String(a.name), kind: String(a.kind), position: position(a), ...(a.hidden ? { hidden: true } : {}), settings: (a.settings ?? {}) as Record<string, never> })),
    views: views.map((v) => ({ id: v.id, folder_id: String(v.folder_id), name: String(v.name), kind: String(v.kind), position: position(v), settings: renameKeys(v.settings) as Record<string, never> })),
    items: items.map((item) => ({ id: item.id, folder_id: String(item.folder_id), name: String(item.name ?? ''), position: position(item), values: (valuesByItem.get(item.id) ?? {}) as Record<string, never> })),
    ...(opts.withAutomations && folderId === boardId ? { automations: await automationsOf(db, view, teamId, boardId, primary?.id) } : {}),
    ...(opts.keepAbove ? { above: aboveAttributes.map((a) => ({ id: a.id, kind: String(a.kind) })) } : {}),
  };
}

/**
 * A duplicate's folder keeps who may see it (N2): a hidden folder's copy is hidden from the same
 * people, else its items would be read by everyone on the board. Only non-default access is kept.
 */
function accessOf(f: Rec): { access?: TemplateContent['folders'][number]['access'] } {
  const access: NonNullable<TemplateContent['folders'][number]['access']> = {};
  if (f.hidden) access.hidden = true;
  if (Array.isArray(f.user_ids) && f.user_ids.length) access.user_ids = f.user_ids as number[];
  if (f.permissions && typeof f.permissions === 'object' && Object.keys(f.permissions).length) access.permissions = f.permissions as Record<string, string>;
  if (Array.isArray(f.final_permissions) && f.final_permissions.length) access.final_permissions = f.final_permissions as string[];
  return Object.keys(access).length ? { access } : {};
}

/**
 * What a template keeps of a folder's access (decision 0359): only that it is hidden. Its people
 * and entries belong to the workspace it was saved in; a template may be used in another one.
 */
function templateAccessOf(f: Rec): { access?: TemplateContent['folders'][number]['access'] } {
  return f.hidden ? { access: { hidden: true } } : {};
}

/**
 * A template's folder as written into the new board (decision 0359): a hidden folder stays
 * hidden, with its user as its only member (the template's people are of another workspace);
 * who else sees it is then the new board's permission rules (the owner, and whom the user adds).
 */
function templateFolderAccess(access: TemplateContent['folders'][number]['access'], userId: number): Record<string, unknown> {
  return access?.hidden ? { hidden: true, user_ids: [userId] } : {};
}

/** The board's automations as the reader sees them (decision 0226), the board's name attribute as the key `primary`. */
async function automationsOf(db: Db, view: ReadView, teamId: number, boardId: string, primaryId: string | undefined): Promise<NonNullable<TemplateContent['automations']>> {
  const rows = await view.filter(db, 'automation', await liveRecords(db, teamId, boardId, 'automation'));
  const rename = (v: unknown) => (primaryId ? replaceStrings(v, new Map([[primaryId, PRIMARY_KEY]])) : v);
  return rows.slice(0, 200).map((a) => ({
    id: a.id,
    name: String(a.name ?? ''),
    enabled: a.enabled === true,
    trigger: rename(a.trigger ?? null) as Record<string, never> | null,
    conditions: rename(Array.isArray(a.conditions) ? a.conditions : []) as never[],
    match: a.match === 'any' ? 'any' : 'all',
    actions: rename(Array.isArray(a.actions) ? a.actions : []) as Record<string, never>[],
    position: typeof a.position === 'number' ? a.position : 0,
  }));
}

/** Replaces every string (and object key) found in `ids` by its new id, deeply (view settings name attributes). */
export function replaceStrings(value: unknown, ids: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') return ids.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => replaceStrings(v, ids));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [ids.get(k) ?? k, replaceStrings(v, ids)]));
  return value;
}

/** `{"$days": n}` → the date n days from `today`; a pair → a date range; anything else as it is. */
export function resolveRelativeDates(value: unknown, today: Date): unknown {
  const parsed = relativeDays.safeParse(value);
  if (!parsed.success) return value;
  const day = (n: number) => new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + n)).toISOString().slice(0, 10);
  const days = parsed.data.$days;
  return Array.isArray(days) ? { start: day(days[0]), end: day(days[1]) } : day(days);
}

export interface InstantiateOptions {
  boardId: string;
  name: string;
  /** A new id for a template key (random for a template; derived from the job for a duplicate). */
  newId: (key: string) => string;
  /** Board position in the workspace's list. */
  position?: number;
  /** Which items to write now (a duplicate writes them in slices); all when absent. */
  items?: TemplateContent['items'];
  /** Write the board, its folders, attributes and views (false for a later slice of items). */
  structure?: boolean;
  /** A duplicate in the same workspace keeps members and attachments values. */
  sameWorkspace?: boolean;
}

/** The new ids of a content's keys: the root is the board, the name attribute is the board's own. */
export function idMap(content: TemplateContent, opts: Pick<InstantiateOptions, 'boardId' | 'newId'>): Map<string, string> {
  const ids = new Map<string, string>();
  ids.set(content.root_id, opts.boardId);
  ids.set(PRIMARY_KEY, primaryAttributeIdFor(opts.boardId));
  for (const list of [content.folders, content.attributes, content.views, content.items, content.automations ?? []]) {
    for (const record of list) if (!ids.has(record.id)) ids.set(record.id, opts.newId(record.id));
  }
  return ids;
}

/**
 * Writes a template content as a new board through the save path, as the scope's user (who must
 * be allowed to create boards). Every record gets a new id; references follow.
 */
export async function instantiate(scope: WriteScope, content: TemplateContent, opts: InstantiateOptions): Promise<{ boardId: string; items: number }> {
  const ids = idMap(content, opts);
  const idOf = (key: string) => ids.get(key) ?? key;
  const boardId = opts.boardId;
  const save = (def: (typeof collections)[keyof typeof collections], record: Record<string, unknown>) =>
    saveRecord(scope, def, String(record.id), { row_version: 1, board_id: boardId, ...record });
  const today = scope.now;

  if (opts.structure !== false) {
    await save(collections.folder, { id: boardId, parent_id: null, name: opts.name, position: opts.position ?? 0 });
    await save(collections.attribute, { id: primaryAttributeIdFor(boardId), folder_id: boardId, name: PRIMARY_ATTRIBUTE_NAME, kind: 'primary', position: 0, settings: {} });
    // Parents before children (the snapshot's order; a built-in has one folder).
    const rest = content.folders.filter((f) => f.id !== content.root_id);
    const written = new Set([content.root_id]);
    while (rest.length) {
      const index = rest.findIndex((f) => f.parent_id !== null && written.has(f.parent_id));
      if (index < 0) break; // an orphan: a broken content; skip what cannot be placed
      const folder = rest.splice(index, 1)[0]!;
      await save(collections.folder, { id: idOf(folder.id), parent_id: idOf(folder.parent_id!), name: folder.name, position: folder.position, ...(opts.sameWorkspace ? folder.access : templateFolderAccess(folder.access, scope.viewer.id)) });
      written.add(folder.id);
    }
    for (const attribute of content.attributes) {
      let settings = attribute.settings as Record<string, unknown>;
      // A reference to the saved board points at the new one; to another board, at nothing.
      if (attribute.kind === 'reference' && typeof settings.board_id === 'string') settings = { ...settings, board_id: settings.board_id === content.root_id ? boardId : null };
      await save(collections.attribute, { id: idOf(attribute.id), folder_id: idOf(attribute.folder_id), name: attribute.name, kind: attribute.kind, position: attribute.position, ...(attribute.hidden ? { hidden: true } : {}), settings });
    }
    for (const view of content.views) {
      await save(collections.folder_view, { id: idOf(view.id), folder_id: idOf(view.folder_id), name: view.name, kind: view.kind, visibility: 'shared', position: view.position, settings: replaceStrings(view.settings, ids) });
    }
    // Automations (decision 0226): their attribute, option and folder keys follow; from a template, one that names
    // people or an address (of another workspace) lands switched off: the user checks it and turns it on.
    // Someone who may make boards but not automations gets the board without them.
    const mayAutomate = (content.automations?.length ?? 0) > 0 && allowed(scope.viewer, 'MANAGE_AUTOMATIONS', await scope.chain(boardId, boardId));
    for (const automation of mayAutomate ? (content.automations ?? []) : []) {
      await save(collections.automation, {
        id: idOf(automation.id),
        name: automation.name,
        enabled: opts.sameWorkspace ? automation.enabled : automation.enabled && !namesPeopleOrAddresses(automation),
        trigger: replaceStrings(automation.trigger, ids),
        conditions: replaceStrings(automation.conditions, ids),
        match: automation.match,
        actions: replaceStrings(automation.actions, ids),
        position: automation.position,
      });
    }
  }
  const kinds = new Map(content.attributes.map((a) => [a.id, a.kind]));
  const items = opts.items ?? content.items;
  for (const item of items) {
    const itemId = idOf(item.id);
    await save(collections.item, { id: itemId, folder_id: idOf(item.folder_id), name: item.name, position: item.position });
    for (const [key, raw] of Object.entries(item.values)) {
      const kind = kinds.get(key);
      if (!kind || leftOut(opts.sameWorkspace).has(kind)) continue;
      let value = resolveRelativeDates(raw, today);
      if (kind === 'reference') value = Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string' && ids.has(id)).map(idOf) : [];
      const attributeId = idOf(key);
      await save(collections.value, { id: valueIdFor(itemId, attributeId), item_id: itemId, attribute_id: attributeId, value });
    }
  }
  return { boardId, items: items.length };
}

/** Whether an automation names people (user ids) or an address to call: such a one from a template lands switched off. */
function namesPeopleOrAddresses(automation: NonNullable<TemplateContent['automations']>[number]): boolean {
  return /"user_ids"|"url"|"webhook"/.test(JSON.stringify([automation.trigger, automation.actions, automation.conditions]));
}

/** The board's position after the workspace's last board. */
export async function nextBoardPosition(db: Db, teamId: number): Promise<number> {
  const { rows } = await sql<{ max: number | null }>`
    select max((data->>'position')::float) as max from records
    where team_id = ${teamId} and collection = 'folder' and deleted_at is null and data->>'parent_id' is null`.execute(db);
  return Number(rows[0]?.max ?? 0) + 1;
}
