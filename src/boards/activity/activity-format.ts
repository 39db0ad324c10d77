import { commentPlainText } from '../../../schema/comment-html';
import type { DateRange, LinkValue } from '../../../schema/attributes';

/**
 * The activity log's entries (domain events from GET /api/{teamId}/activity, decision 0110) turned
 * into lines a person reads (pure, for tests): who did what to which thing, and for an edit each
 * changed field as before → after in words — attribute names and option, member, folder and item
 * names, never raw ids. The screen puts the lines into sentences in the user's language.
 */

export interface ActivityEntry {
  id: string;
  type: string;
  collection: string | null;
  record_id: string | null;
  item_id: string | null;
  board_id: string | null;
  actor_id: number | null;
  /** An automation's write: which automation (Autobot is the actor). */
  via?: { automation_name?: unknown } | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  created_at: string;
}

export interface ActivityPage {
  data: ActivityEntry[];
  after: string | null;
  has_more: boolean;
}

export type ActivityAction = 'created' | 'updated' | 'trashed' | 'restored' | 'deleted' | 'conflicted';
export type ActivitySubject = 'item' | 'value' | 'comment' | 'reaction' | 'folder' | 'attribute' | 'view' | 'time_entry' | 'member';

export interface FieldChange {
  /** What changed, in words: an attribute's name, or a field word from `Words`. */
  field: string;
  before: string | null;
  after: string | null;
}

export interface ActivityLine {
  id: string;
  actorId: number | null;
  /** The automation that made the change (Autobot's writes), by name. */
  automation?: string | null;
  at: string;
  action: ActivityAction;
  subject: ActivitySubject;
  /** The item the change is on (its name), when there is one. */
  itemId: string | null;
  itemName: string | null;
  /** The thing itself when it is not the item: a folder's, attribute's or view's name; a comment's words; a reaction. */
  target: string | null;
  changes: FieldChange[];
  /** A conflict (`conflicted`): whose save stayed (the actor's offline change was replaced by it; decision 0346). */
  replacedBy?: number | null;
}

export interface AttributeInfo {
  id: string;
  name: string;
  kind: string;
  settings?: unknown;
}

/** What the formatter may look up; every answer may be missing (deleted since, not loaded). */
export interface ActivityLookup {
  attribute(id: string): AttributeInfo | undefined;
  memberName(id: number): string | undefined;
  folderName(id: string): string | undefined;
  itemName(id: string): string | undefined;
}

/** Words the formatter needs in the user's language (given by the screen). */
export interface Words {
  name: string;
  folder: string;
  pinned: string;
  text: string;
  description: string;
  kind: string;
  hidden: string;
  yes: string;
  no: string;
  unknown: string;
  /** A member no longer in the workspace. */
  formerMember: string;
  /** An item, folder or attribute that is gone. */
  deleted: string;
  formatDate(iso: string): string;
}

const MAX_TEXT = 140;
const short = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text);

/** Fields that change with every move or save and say nothing to a reader. */
const QUIET_FIELDS = new Set(['id', 'row_version', 'updated_at', 'created_at', 'team_id', 'board_id', 'position', 'deleted_at', 'created_by', 'edited_at', 'settings', 'permissions', 'final_permissions']);

const SUBJECTS: Record<string, ActivitySubject> = {
  item: 'item',
  value: 'value',
  comment: 'comment',
  reaction: 'reaction',
  folder: 'folder',
  attribute: 'attribute',
  view: 'view',
  time_entry: 'time_entry',
  member: 'member',
};

/** A value of an attribute as words. */
export function valueWords(attribute: AttributeInfo | undefined, value: unknown, lookup: ActivityLookup, words: Words): string | null {
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return null;
  switch (attribute?.kind) {
    case 'status':
    case 'label': {
      // Read as stored, not re-validated: an option saved under older rules still has its name.
      const raw = (attribute.settings as { options?: unknown } | null | undefined)?.options;
      const options = Array.isArray(raw) ? (raw as { id?: unknown; name?: unknown }[]) : [];
      const ids = Array.isArray(value) ? value : [value];
      return ids.map((id) => String(options.find((o) => o.id === id)?.name ?? words.unknown)).join(', ');
    }
    case 'members':
      return (Array.isArray(value) ? value : [value]).map((id) => lookup.memberName(Number(id)) ?? words.formerMember).join(', ');
    case 'reference':
      return (Array.isArray(value) ? value : [value]).map((id) => lookup.itemName(String(id)) ?? words.deleted).join(', ');
    case 'checkbox':
      return value === true ? words.yes : words.no;
    case 'date':
      return typeof value === 'string' ? words.formatDate(value) : null;
    case 'date-range': {
      const range = value as Partial<DateRange>;
      return `${range.start ? words.formatDate(range.start) : '…'} – ${range.end ? words.formatDate(range.end) : '…'}`;
    }
    case 'link': {
      const link = value as Partial<LinkValue>;
      return short(link.text || link.url || '');
    }
    case 'attachments':
      return Array.isArray(value) ? value.map((a) => String((a as { name?: unknown }).name ?? '')).join(', ') : null;
    case 'long-text':
      return short(typeof value === 'string' ? commentPlainText(value) : JSON.stringify(value));
    default:
      return short(typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value));
  }
}

/** A value record's attribute: from the record, else from its id ("{itemId}.{attributeId}"). */
function attributeIdOf(entry: ActivityEntry): string | null {
  const fromRecord = (entry.after?.attribute_id ?? entry.before?.attribute_id) as string | undefined;
  if (fromRecord) return fromRecord;
  const dot = entry.record_id?.indexOf('.') ?? -1;
  return dot > 0 ? entry.record_id!.slice(dot + 1) : null;
}

function plainField(field: string, value: unknown, lookup: ActivityLookup, words: Words): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (field === 'folder_id' || field === 'parent_id') return lookup.folderName(String(value)) ?? words.deleted;
  if (field === 'text' && typeof value === 'object') return short(commentPlainText(String((value as { html?: unknown }).html ?? '')));
  if (typeof value === 'boolean') return value ? words.yes : words.no;
  if (typeof value === 'string') return short(value);
  if (typeof value === 'number') return String(value);
  return short(JSON.stringify(value));
}

const FIELD_WORD: Record<string, keyof Words> = { name: 'name', folder_id: 'folder', parent_id: 'folder', pinned: 'pinned', text: 'text', description: 'description', kind: 'kind', hidden: 'hidden' };

/** The changed fields of an update, in words; quiet fields (positions, versions) left out. */
function fieldChanges(entry: ActivityEntry, lookup: ActivityLookup, words: Words): FieldChange[] {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  const fields = [...new Set([...Object.keys(after), ...Object.keys(before)])].filter((f) => !QUIET_FIELDS.has(f));
  const changes: FieldChange[] = [];
  for (const field of fields) {
    if (JSON.stringify(before[field] ?? null) === JSON.stringify(after[field] ?? null)) continue;
    const word = FIELD_WORD[field];
    changes.push({ field: word ? (words[word] as string) : field, before: plainField(field, before[field], lookup, words), after: plainField(field, after[field], lookup, words) });
  }
  return changes;
}

/** One entry as a line; null for an entry with nothing to tell (only a position or version moved). */
export function activityLine(entry: ActivityEntry, lookup: ActivityLookup, words: Words): ActivityLine | null {
  const [prefix = '', rawVerb = ''] = entry.type.split('.');
  const subject = SUBJECTS[prefix];
  // Members are added and removed (member.added, member.removed); read as created and deleted.
  const verb = rawVerb === 'added' ? 'created' : rawVerb === 'removed' ? 'deleted' : rawVerb;
  const action = (['created', 'updated', 'trashed', 'restored', 'deleted', 'conflicted'] as const).find((a) => a === verb);
  if (!subject || !action) return null;
  if (action === 'conflicted') return conflictLine(entry, subject, lookup, words);
  const record = { ...(entry.before ?? {}), ...(entry.after ?? {}) };
  const itemId = entry.item_id ?? (subject === 'item' ? entry.record_id : null);
  const itemName = itemId ? (lookup.itemName(itemId) ?? (subject === 'item' && typeof record.name === 'string' ? record.name : null) ?? words.deleted) : null;
  const automation = typeof entry.via?.automation_name === 'string' ? entry.via.automation_name : null;
  const line: ActivityLine = { id: entry.id, actorId: entry.actor_id, automation, at: entry.created_at, action, subject, itemId, itemName, target: null, changes: [] };

  switch (subject) {
    case 'value': {
      const attributeId = attributeIdOf(entry);
      const attribute = attributeId ? lookup.attribute(attributeId) : undefined;
      const field = attribute?.name ?? words.deleted;
      const before = action === 'created' ? null : valueWords(attribute, entry.before?.value, lookup, words);
      const after = action === 'deleted' ? null : valueWords(attribute, entry.after?.value, lookup, words);
      if (before === after) return null;
      // A value written or cleared reads as an edit of the item's field.
      return { ...line, action: 'updated', target: field, changes: [{ field, before, after }] };
    }
    case 'comment':
      line.target = plainField('text', record.text, lookup, words);
      break;
    case 'reaction':
      line.target = typeof record.reaction === 'string' ? record.reaction : null;
      break;
    case 'member':
      line.target = lookup.memberName(Number(entry.record_id)) ?? words.formerMember;
      break;
    case 'item':
      break;
    default:
      line.target = typeof record.name === 'string' ? record.name : (entry.record_id ? lookup.folderName(entry.record_id) : undefined) ?? null;
  }
  if (action === 'updated') {
    line.changes = fieldChanges(entry, lookup, words);
    if (line.changes.length === 0) return null;
  }
  return line;
}

/**
 * "X's offline change to Budget (90) was replaced by Y's (120)" (event `{prefix}.conflicted`,
 * server/sync/conflicts.ts): the actor is whose edit lost, `after.by` whose save stayed; the one
 * change holds the field in words, mine as before and theirs as after.
 */
function conflictLine(entry: ActivityEntry, subject: ActivitySubject, lookup: ActivityLookup, words: Words): ActivityLine {
  const itemId = entry.item_id ?? (subject === 'item' ? entry.record_id : null);
  const itemName = itemId ? (lookup.itemName(itemId) ?? words.deleted) : null;
  const rawField = typeof entry.before?.field === 'string' ? entry.before.field : '';
  const mine = entry.before?.value;
  const theirs = entry.after?.value;
  let change: FieldChange;
  if (subject === 'value') {
    const attributeId = attributeIdOf(entry);
    const attribute = attributeId ? lookup.attribute(attributeId) : undefined;
    change = { field: attribute?.name ?? words.deleted, before: valueWords(attribute, mine, lookup, words), after: valueWords(attribute, theirs, lookup, words) };
  } else {
    const word = FIELD_WORD[rawField];
    change = { field: word ? (words[word] as string) : rawField, before: plainField(rawField, mine, lookup, words), after: plainField(rawField, theirs, lookup, words) };
  }
  const by = entry.after?.by;
  return { id: entry.id, actorId: entry.actor_id, at: entry.created_at, action: 'conflicted', subject, itemId, itemName, target: change.field, changes: [change], replacedBy: typeof by === 'number' ? by : null };
}

/** The query string of an activity request (only the filters that are set). */
export interface ActivityFilter {
  itemId?: string | null;
  boardId?: string | null;
  userId?: number | null;
  /** yyyy-mm-dd, from the start of that day (the user's day). */
  from?: string | null;
  /** yyyy-mm-dd, through the end of that day. */
  to?: string | null;
}

/** A local calendar day as the ISO instant it starts at (the user's midnight, not UTC's). */
export function dayStart(day: string, plusDays = 0): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + plusDays).toISOString();
}

export function activityQuery(filter: ActivityFilter, after: string | null, limit = 50): string {
  const params = new URLSearchParams();
  if (filter.itemId) params.set('item_id', filter.itemId);
  if (filter.boardId) params.set('board_id', filter.boardId);
  if (filter.userId) params.set('user_id', String(filter.userId));
  const from = filter.from ? dayStart(filter.from) : null;
  const to = filter.to ? dayStart(filter.to, 1) : null;
  if (from) params.set('from', from);
  if (to) params.set('to', to);
  if (after) params.set('after', after);
  params.set('limit', String(limit));
  return params.toString();
}
