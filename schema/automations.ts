import { z } from 'zod';
import { recordId } from './records';
import { FILTER_OPS, type FilterRule } from './views';
import { matchesFilter, passesFilters, type AttributeRef, type ItemLike, type ValueGetter } from './filters';
import { isValidDate } from './attributes';
import { AUTOMATION_EXCEEDED_RATE, AUTOMATION_WARNING_RATE } from './constants';

/**
 * Automations (workspace.md: the Autobot user, "The automation is not complete or not valid",
 * runs warning at 80 % and all automations off at 100 % of the monthly AutomationRunsLimit).
 * One `automation` record per rule of a board: a trigger, optional conditions (the view filters'
 * operators, judged by schema/filters.ts), one or more actions, an enabled flag and a name.
 * Pure: the server's runner (server/automations/) and the app's builder share every rule here.
 * docs/automations.md.
 */

/** The Autobot user (workspace.md §3, special users): a fixed users row (migration 0150). */
export const AUTOBOT_USER_ID = 2_147_483_000;
export const AUTOBOT_NAME = 'Autobot';
/** A change made by an automation triggers others at most this many levels deep. */
export const AUTOMATION_CHAIN_MAX_DEPTH = 5;
/** The spec's message for an automation that cannot run (workspace.md §5). */
export const AUTOMATION_INVALID_MESSAGE = 'The automation is not complete or not valid.';
export { MAX_AUTOMATION_ACTIONS, MAX_AUTOMATION_CONDITIONS } from './automation-records';

export const TRIGGER_TYPES = ['item_created', 'value_changed', 'date_arrives', 'comment_added', 'button_clicked', 'item_moved'] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];
export const ACTION_TYPES = ['set_value', 'assign', 'unassign', 'move_to_folder', 'create_item', 'add_comment', 'notify', 'webhook'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/** Attribute kinds a "value changes to" trigger watches (the list). */
export const WATCHED_KINDS = ['status', 'label', 'checkbox', 'members', 'date'] as const;
/** Kinds a "set value" action may write (value-holding kinds). */
export const SETTABLE_KINDS = ['text', 'long-text', 'number', 'status', 'label', 'date', 'members', 'email', 'link', 'checkbox'] as const;

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const userId = z.number().int().positive();
/** A template text: `{{item.name}}`, `{{board.name}}`, `{{automation.name}}`, `{{today}}` are filled in. */
const template = z.string().max(5000);

export const triggerSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('item_created') }),
  /** `to` absent: any change of the attribute; present: the value becomes it (filter "is"). */
  z.strictObject({ type: z.literal('value_changed'), attribute_id: recordId, to: z.json().optional() }),
  /**
   * The date of a date attribute arrives: at `time` (HH:mm) in `timezone` on the date plus
   * `offset_days` (a date with a time fires at that time).
   */
  z.strictObject({
    type: z.literal('date_arrives'),
    attribute_id: recordId,
    time: z.string().regex(TIME, 'a time like 09:00').default('09:00'),
    offset_days: z.number().int().min(-365).max(365).default(0),
    timezone: z.string().min(1).max(64).refine(isTimeZone, 'an IANA time zone').default('UTC'),
  }),
  z.strictObject({ type: z.literal('comment_added') }),
  z.strictObject({ type: z.literal('button_clicked'), attribute_id: recordId }),
  /** The item moves into a folder (absent/null: into any folder). Moving between groups is a value change. */
  z.strictObject({ type: z.literal('item_moved'), folder_id: recordId.nullable().optional() }),
]);
export type Trigger = z.infer<typeof triggerSchema>;

export const actionSchema = z.discriminatedUnion('type', [
  /** value null clears; `relative_days` (dates) sets today + n days in the automation's time zone. */
  z.strictObject({ type: z.literal('set_value'), attribute_id: recordId, value: z.json().optional(), relative_days: z.number().int().min(-3650).max(3650).optional() }),
  z.strictObject({ type: z.literal('assign'), attribute_id: recordId, user_ids: z.array(userId).min(1).max(50) }),
  z.strictObject({ type: z.literal('unassign'), attribute_id: recordId, user_ids: z.array(userId).min(1).max(50) }),
  z.strictObject({ type: z.literal('move_to_folder'), folder_id: recordId }),
  /** A new item in this board or another one of the workspace, named from a template, with values. */
  z.strictObject({
    type: z.literal('create_item'),
    board_id: recordId,
    folder_id: recordId,
    name: template.min(1),
    values: z.array(z.strictObject({ attribute_id: recordId, value: z.json() })).max(20).default([]),
  }),
  z.strictObject({ type: z.literal('add_comment'), text: template.min(1) }),
  /** An item notification (the item) or a board notification (the board), from Autobot. */
  z.strictObject({ type: z.literal('notify'), user_ids: z.array(userId).min(1).max(50), on: z.enum(['item', 'board']).default('item'), message: template.min(1) }),
  z.strictObject({ type: z.literal('webhook'), url: z.url({ protocol: /^https?$/ }).max(2048) }),
]);
export type Action = z.infer<typeof actionSchema>;

export { automationRecord, buttonClickRecord, type AutomationRecord, type ButtonClickRecord } from './automation-records';
import type { AutomationRecord } from './automation-records';

// ── validity ──────────────────────────────────────────────────────────────────────────────────
export interface BoardFacts {
  /** The board's live attributes by id. */
  attributes: ReadonlyMap<string, AttributeRef>;
  /** The board's live folder ids (the board itself included). */
  folderIds?: ReadonlySet<string>;
}

/** What is missing or wrong, as texts naming the part (empty: complete and valid). */
export function automationProblems(auto: Pick<AutomationRecord, 'trigger' | 'actions' | 'conditions'>, facts?: BoardFacts): string[] {
  const problems: string[] = [];
  const attribute = (id: string) => facts?.attributes.get(id);
  const needAttribute = (where: string, id: string, kinds?: readonly string[]) => {
    if (!facts) return;
    const a = attribute(id);
    if (!a) problems.push(`${where}: the attribute is gone`);
    else if (kinds && !kinds.includes(a.kind)) problems.push(`${where}: not possible for a ${a.kind} attribute`);
  };
  const trigger = triggerSchema.safeParse(auto.trigger ?? undefined);
  if (!trigger.success) problems.push('trigger: choose what starts the automation');
  else {
    const t = trigger.data;
    if (t.type === 'value_changed') needAttribute('trigger', t.attribute_id, WATCHED_KINDS);
    if (t.type === 'date_arrives') needAttribute('trigger', t.attribute_id, ['date']);
    if (t.type === 'button_clicked') needAttribute('trigger', t.attribute_id, ['button']);
    if (t.type === 'item_moved' && t.folder_id && facts?.folderIds && !facts.folderIds.has(t.folder_id)) problems.push('trigger: the folder is gone');
  }
  if (auto.actions.length === 0) problems.push('actions: add at least one action');
  auto.actions.forEach((raw, i) => {
    const parsed = actionSchema.safeParse(raw);
    if (!parsed.success) return problems.push(`actions.${i}: complete the action`);
    const a = parsed.data;
    if (a.type === 'set_value') {
      needAttribute(`actions.${i}`, a.attribute_id, SETTABLE_KINDS);
      if (a.relative_days !== undefined && facts && attribute(a.attribute_id) && attribute(a.attribute_id)!.kind !== 'date') problems.push(`actions.${i}: a relative date needs a date attribute`);
    }
    if (a.type === 'assign' || a.type === 'unassign') needAttribute(`actions.${i}`, a.attribute_id, ['members']);
    if (a.type === 'move_to_folder' && facts?.folderIds && !facts.folderIds.has(a.folder_id)) problems.push(`actions.${i}: the folder is gone`);
  });
  auto.conditions.forEach((c, i) => {
    if (!(FILTER_OPS as readonly string[]).includes(c.op)) problems.push(`conditions.${i}: unknown operator`);
    else if (facts && !attribute(c.attribute_id) && c.attribute_id !== 'name') problems.push(`conditions.${i}: the attribute is gone`);
  });
  return problems;
}

export function isCompleteAutomation(auto: Pick<AutomationRecord, 'trigger' | 'actions' | 'conditions'>, facts?: BoardFacts): boolean {
  return automationProblems(auto, facts).length === 0;
}

// ── triggers ──────────────────────────────────────────────────────────────────────────────────
/** What happened to an item, as a trigger sees it (built from a domain event or the clock). */
export type TriggerFact =
  | { type: 'item_created'; item_id: string }
  | { type: 'value_changed'; item_id: string; attribute_id: string; before: unknown; after: unknown }
  | { type: 'comment_added'; item_id: string; comment_id: string }
  | { type: 'button_clicked'; item_id: string; attribute_id: string }
  | { type: 'item_moved'; item_id: string; from_folder: string | null; to_folder: string }
  | { type: 'date_arrives'; item_id: string; attribute_id: string; date: string };

/** The part of a domain event a trigger reads (server/events/types.ts DomainEvent). */
export interface EventLike {
  type: string;
  collection: string | null;
  record_id: string | null;
  item_id: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** The trigger facts of one domain event (none for most events). */
export function factsOfEvent(event: EventLike): TriggerFact[] {
  const item = event.item_id;
  if (!item || !event.record_id) return [];
  switch (event.type) {
    case 'item.created':
      return [{ type: 'item_created', item_id: item }];
    case 'item.updated':
    case 'item.restored': {
      if (!event.after || !('folder_id' in event.after) || typeof event.after.folder_id !== 'string') return [];
      const from = typeof event.before?.folder_id === 'string' ? event.before.folder_id : null;
      return [{ type: 'item_moved', item_id: item, from_folder: from, to_folder: event.after.folder_id }];
    }
    case 'value.created':
    case 'value.updated': {
      if (!event.after || !('value' in event.after)) return [];
      const attributeId = typeof event.after.attribute_id === 'string' ? event.after.attribute_id : event.record_id.slice(item.length + 1);
      const before = event.type === 'value.created' ? null : (event.before?.value ?? null);
      return [{ type: 'value_changed', item_id: item, attribute_id: attributeId, before, after: event.after.value ?? null }];
    }
    case 'comment.created':
      return [{ type: 'comment_added', item_id: item, comment_id: event.record_id }];
    case 'button_click.created': {
      const attributeId = event.after?.attribute_id;
      return typeof attributeId === 'string' ? [{ type: 'button_clicked', item_id: item, attribute_id: attributeId }] : [];
    }
    default:
      return [];
  }
}

/** Whether a value "is" the wanted one, by the view filter's rule (a member among members, a label among labels). */
export function valueIs(attribute: AttributeRef, value: unknown, wanted: unknown): boolean {
  const rule: FilterRule = { attribute_id: attribute.id, op: 'is', value: wanted as FilterRule['value'] };
  return matchesFilter({ id: '_', name: '' }, rule, attribute, () => value);
}

/** Whether the trigger fires on the fact. `attribute` is the trigger's attribute (for "changes to"). */
export function triggerMatches(trigger: Trigger, fact: TriggerFact, attribute?: AttributeRef): boolean {
  if (trigger.type !== fact.type) return false;
  switch (trigger.type) {
    case 'item_created':
    case 'comment_added':
      return true;
    case 'button_clicked':
      return fact.type === 'button_clicked' && fact.attribute_id === trigger.attribute_id;
    case 'item_moved':
      return fact.type === 'item_moved' && fact.from_folder !== fact.to_folder && (!trigger.folder_id || trigger.folder_id === fact.to_folder);
    case 'date_arrives':
      return fact.type === 'date_arrives' && fact.attribute_id === trigger.attribute_id;
    case 'value_changed': {
      if (fact.type !== 'value_changed' || fact.attribute_id !== trigger.attribute_id) return false;
      if (JSON.stringify(fact.before ?? null) === JSON.stringify(fact.after ?? null)) return false;
      if (trigger.to === undefined) return true;
      if (!attribute) return false;
      // "Changes to Done": it is Done now and was not before (re-saving Done is no change to Done).
      return valueIs(attribute, fact.after, trigger.to) && !valueIs(attribute, fact.before, trigger.to);
    }
  }
}

/** Whether the item's values pass the automation's conditions (no condition: always). */
export function conditionsHold(auto: { conditions: FilterRule[]; match: 'all' | 'any' }, item: ItemLike, attributes: ReadonlyMap<string, AttributeRef>, get: ValueGetter): boolean {
  return passesFilters(item, auto.conditions, auto.match, attributes, get);
}

// ── the loop guard ────────────────────────────────────────────────────────────────────────────
/** One step of a chain: an automation that ran on an item. The chain rides on the events its writes make. */
export interface ChainLink {
  automation_id: string;
  item_id: string | null;
}

/**
 * Whether `automationId` may run on `itemId` after the chain that led here: at most
 * AUTOMATION_CHAIN_MAX_DEPTH automations deep, and never the same automation on the same item twice.
 */
export function chainAllows(chain: readonly ChainLink[], automationId: string, itemId: string | null): boolean {
  if (chain.length >= AUTOMATION_CHAIN_MAX_DEPTH) return false;
  return !chain.some((link) => link.automation_id === automationId && link.item_id === itemId);
}

// ── dates and time zones ──────────────────────────────────────────────────────────────────────
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const partsFormat = new Map<string, Intl.DateTimeFormat>();
/** The wall-clock fields of an instant in a zone (Intl: the platform's time-zone database). */
function wallClock(instant: number, zone: string): { y: number; mo: number; d: number; h: number; mi: number } {
  let format = partsFormat.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' });
    partsFormat.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
  return { y: Number(parts.year), mo: Number(parts.month), d: Number(parts.day), h: Number(parts.hour), mi: Number(parts.minute) };
}

/** The instant a wall-clock time in a zone stands for (a time skipped by a DST jump moves forward). */
export function zonedTimeToUtc(date: string, time: string, zone: string): Date {
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  const [h, mi] = time.split(':').map(Number) as [number, number];
  const wanted = Date.UTC(y, mo - 1, d, h, mi);
  let guess = wanted;
  // Two rounds settle the zone's offset at the result (offsets change at most once near a date).
  for (let i = 0; i < 2; i++) {
    const w = wallClock(guess, zone);
    guess += wanted - Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi);
  }
  return new Date(guess);
}

/** The calendar date (YYYY-MM-DD) of an instant in a zone. */
export function dateInZone(instant: Date, zone: string): string {
  const w = wallClock(instant.getTime(), zone);
  return `${w.y}-${String(w.mo).padStart(2, '0')}-${String(w.d).padStart(2, '0')}`;
}

/** A calendar date plus n days (calendar arithmetic, no time zone involved). */
export function addDays(date: string, days: number): string {
  const [y, mo, d] = date.slice(0, 10).split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, mo - 1, d + days)).toISOString().slice(0, 10);
}

/** When a date-arrives trigger fires for a date value (null: not a date). */
export function dateTriggerDueAt(trigger: Extract<Trigger, { type: 'date_arrives' }>, value: unknown): Date | null {
  if (typeof value !== 'string' || !isValidDate(value)) return null;
  const day = addDays(value.slice(0, 10), trigger.offset_days);
  const time = value.length > 10 ? value.slice(11, 16) : trigger.time;
  return zonedTimeToUtc(day, time, trigger.timezone);
}

// ── templates ─────────────────────────────────────────────────────────────────────────────────
export const TEMPLATE_KEYS = ['item.name', 'board.name', 'automation.name', 'today'] as const;

/** Fills `{{key}}` placeholders; unknown keys become empty. */
export function renderTemplate(text: string, vars: Readonly<Record<string, string>>): string {
  return text.replace(/\{\{\s*([a-z.]+)\s*\}\}/gi, (_, key: string) => vars[key] ?? '');
}

// ── run log ───────────────────────────────────────────────────────────────────────────────────
export const RUN_RESULTS = ['done', 'skipped', 'failed', 'limit'] as const;
export type RunResult = (typeof RUN_RESULTS)[number];

/** One run as GET /api/{teamId}/automations/runs answers it. */
export interface AutomationRun {
  id: string;
  automation_id: string;
  board_id: string;
  item_id: string | null;
  trigger: TriggerType;
  result: RunResult;
  /** Why it was skipped or failed (English; the app shows it as is). */
  error: string | null;
  created_at: string;
}

/** GET /api/{teamId}/automations/usage: this month's runs against the plan's limit. */
export interface AutomationUsage {
  month: string;
  runs: number;
  limit: number;
  /** usage / limit (1 when the limit is 0). */
  rate: number;
  state: 'ok' | 'warning' | 'exceeded';
  /** Runs per board this month. */
  boards: { board_id: string; runs: number }[];
}

export function usageState(runs: number, limit: number): AutomationUsage['state'] {
  const rate = limit > 0 ? runs / limit : 1;
  return rate >= AUTOMATION_EXCEEDED_RATE ? 'exceeded' : rate >= AUTOMATION_WARNING_RATE ? 'warning' : 'ok';
}

/** The calendar month (UTC) runs are counted in. */
export function monthOf(now: Date): string {
  return now.toISOString().slice(0, 7);
}
