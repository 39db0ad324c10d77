import { z } from 'zod';

/**
 * Folder views (folder_view records): what a view (Table, Column, Calendar, Gantt, List, Chart, Form) shows and who may see or change
 * it (workspace.md §4 "View: shared, personal or locked", §6 "only the view owner can make a view
 * personal"; "edit locked views" is EDIT_LOCKED_VIEWS). Pure: zod only.
 *
 * The record itself is schema/records.ts `folderViewRecord`; this file types its `settings`.
 */

export const VIEW_KINDS = ['table', 'column', 'calendar', 'gantt', 'list', 'chart', 'form', 'docs'] as const;
export type ViewKind = (typeof VIEW_KINDS)[number];

/**
 * The Pro-only view kinds (workspace.md §1 "some Pro-only", decision 0260): a workspace whose
 * effective plan has no `proViews` cannot create or change them (the server refuses, the app
 * shows an upgrade message and a Pro badge in the add-view menu).
 */
export const PRO_VIEW_KINDS: readonly ViewKind[] = ['gantt', 'chart'];
export const isProViewKind = (kind: unknown): boolean => typeof kind === 'string' && (PRO_VIEW_KINDS as readonly string[]).includes(kind);

export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export const sortRule = z.object({
  /** An attribute id, or "name" for the primary (the item's name), "created_at" for creation time. */
  attribute_id: z.string().min(1).max(64),
  direction: z.enum(SORT_DIRECTIONS).default('asc'),
});
export type SortRule = z.infer<typeof sortRule>;

/**
 * Filter operators. `any-of` takes a list (the value holds one of them, or shares one with a list
 * value); `between` takes [from, to], both ends included. On dates gt/lt read "after"/"before" and
 * every comparison is by whole day (src/boards/model/filter-conditions.ts names them per kind).
 */
export const FILTER_OPS = ['is', 'is-not', 'contains', 'not-contains', 'empty', 'not-empty', 'gt', 'lt', 'any-of', 'between'] as const;
export type FilterOp = (typeof FILTER_OPS)[number];
export const filterRule = z.object({
  attribute_id: z.string().min(1).max(64),
  op: z.enum(FILTER_OPS),
  value: z.json().optional(),
});
export type FilterRule = z.infer<typeof filterRule>;

export const MIN_COLUMN_WIDTH = 60;
export const MAX_COLUMN_WIDTH = 800;
export const DEFAULT_COLUMN_WIDTH = 180;

export const viewSettings = z.looseObject({
  sort: z.array(sortRule).max(10).default([]),
  filters: z.array(filterRule).max(50).default([]),
  /** All filters must hold ("and") or any one ("or"). */
  match: z.enum(['all', 'any']).default('all'),
  group_by: z.string().min(1).max(64).nullable().default(null),
  hide_empty_groups: z.boolean().default(false),
  /** Column (kanban) views: the order of group keys as the user arranged them. */
  group_order: z.array(z.string().max(64)).max(500).default([]),
  column_widths: z.record(z.string(), z.number().min(MIN_COLUMN_WIDTH).max(MAX_COLUMN_WIDTH)).default({}),
  column_order: z.array(z.string().max(64)).max(500).default([]),
  hidden_columns: z.array(z.string().max(64)).max(500).default([]),
  /** Whether items of subfolders are shown in this folder's view. */
  include_subfolders: z.boolean().default(false),
});
export type ViewSettings = z.infer<typeof viewSettings>;

/** The settings with every default filled in; broken settings fall back to the defaults. */
export function viewSettingsOf(settings: unknown): ViewSettings {
  const parsed = viewSettings.safeParse(settings ?? {});
  return parsed.success ? parsed.data : viewSettings.parse({});
}

// ── per-kind settings (calendar, gantt, list, chart) ─────────────────────────────────────────
// Kept flat in the same `settings` map as the shared keys above (sort, filters, group_by …), so
// a view keeps its filters when its kind's own keys change. Every key has a default, so a view
// saved with `settings: {}` is valid; what the defaults point at (which date attribute…) is
// decided against the board's attributes by resolveViewSettings below.

const attributeRef = z.string().min(1).max(64);

/** Attribute kinds that can place an item on a calendar. */
export const DATE_KINDS = ['date', 'date-range'] as const;

export const CALENDAR_MODES = ['month', 'week', 'day'] as const;
export type CalendarMode = (typeof CALENDAR_MODES)[number];
export const calendarSettings = viewSettings.extend({
  /** The date or date-range attribute that places items; null = the board's first one. */
  date_attribute_id: attributeRef.nullable().default(null),
  mode: z.enum(CALENDAR_MODES).default('month'),
});

export const GANTT_ZOOMS = ['day', 'week', 'month', 'quarter'] as const;
export type GanttZoom = (typeof GANTT_ZOOMS)[number];
export const ganttSettings = viewSettings.extend({
  /** A date-range attribute for the bars; or start + end date attributes; null = the first fitting. */
  range_attribute_id: attributeRef.nullable().default(null),
  start_attribute_id: attributeRef.nullable().default(null),
  end_attribute_id: attributeRef.nullable().default(null),
  zoom: z.enum(GANTT_ZOOMS).default('week'),
});

/** List: grouping is the shared `group_by` (absent = the first status or label attribute). */
export const listSettings = viewSettings.extend({});

export const CHART_TYPES = ['bar', 'stacked-bar', 'pie', 'donut', 'line'] as const;
export type ChartType = (typeof CHART_TYPES)[number];
/** workspace.md §9: "select at least 1 and up to 7 attributes". An empty list means the default. */
export const CHART_MAX_ATTRIBUTES = 7;
export const chartSettings = viewSettings.extend({
  chart_type: z.enum(CHART_TYPES).default('bar'),
  attribute_ids: z.array(attributeRef).max(CHART_MAX_ATTRIBUTES).default([]),
  /** Count items, or sum a number attribute (`sum_attribute_id`). */
  aggregate: z.enum(['count', 'sum']).default('count'),
  sum_attribute_id: attributeRef.nullable().default(null),
  /** Only the 20 largest values, the rest left out (the "Top 20 values" option). */
  top_20: z.boolean().default(false),
});

// ── form (decision 0130) ────────────────────────────────────────────────────────────────────
/**
 * Attribute kinds a public form asks for. Members and references are left out: choosing among
 * them would show an anonymous visitor the workspace's people or the board's items; buttons,
 * custom ids and time tracking hold no value one types in.
 */
export const FORM_FIELD_KINDS = ['primary', 'text', 'long-text', 'number', 'status', 'label', 'date', 'date-range', 'email', 'link', 'checkbox', 'attachments'] as const;
export const FORM_TEXT_MAX = 2000;
export const formField = z.object({
  attribute_id: attributeRef,
  /** Shown instead of the attribute's name; '' = the attribute's name. */
  label: z.string().max(255).default(''),
  help: z.string().max(FORM_TEXT_MAX).default(''),
  required: z.boolean().default(false),
});
export type FormField = z.infer<typeof formField>;
export const formSettings = viewSettings.extend({
  /** Anyone with the link may answer only while this is on; a new form starts off. */
  enabled: z.boolean().default(false),
  /** '' = the view's name. */
  title: z.string().max(255).default(''),
  description: z.string().max(FORM_TEXT_MAX).default(''),
  /** The questions in order; absent = every attribute of a kind a form asks for (FORM_FIELD_KINDS). */
  fields: z.array(formField).max(100).optional(),
  /** The folder new items go into; null (or a folder since removed) = the view's own folder. */
  target_folder_id: attributeRef.nullable().default(null),
  /** Shown after sending; '' = the app's "Thank you" text. */
  confirmation: z.string().max(FORM_TEXT_MAX).default(''),
});

/** Docs (decision 0135): each item is a document; `published` opens the /p/ pages (decision 0136). */
export const docsSettings = viewSettings.extend({
  published: z.boolean().default(false),
  /** Documents (item ids) published one by one, each at its /p/i… page, while the view is not (decision 0210). */
  published_items: z.array(attributeRef).max(1000).default([]),
});

/** The settings schema of each kind (table and column use the shared one). */
export const settingsByKind = {
  table: viewSettings,
  column: viewSettings,
  calendar: calendarSettings,
  gantt: ganttSettings,
  list: listSettings,
  chart: chartSettings,
  form: formSettings,
  docs: docsSettings,
} satisfies Record<ViewKind, z.ZodType>;
export type SettingsOfKind<K extends ViewKind> = z.infer<(typeof settingsByKind)[K]>;

export function isViewKind(value: unknown): value is ViewKind {
  return typeof value === 'string' && (VIEW_KINDS as readonly string[]).includes(value);
}

/**
 * Problems of a view's saved settings for its kind, as "settings.key: message" lines (the
 * server's 422); empty when they are fine. Unknown keys are kept (other clients may own them).
 */
export function viewSettingsProblems(kind: ViewKind, settings: unknown): string[] {
  const parsed = settingsByKind[kind].safeParse(settings ?? {});
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => `settings.${issue.path.join('.')}: ${issue.message}`);
}

/** The saved settings of a kind with every default filled in; broken ones fall back to defaults. */
export function kindSettingsOf<K extends ViewKind>(kind: K, settings: unknown): SettingsOfKind<K> {
  const schema = settingsByKind[kind] as unknown as z.ZodType<SettingsOfKind<K>>;
  const parsed = schema.safeParse(settings ?? {});
  return parsed.success ? parsed.data : schema.parse({});
}

/** What resolveViewSettings needs of an attribute (the board's, in position order). */
export interface ViewAttribute {
  id: string;
  kind: string;
  deleted_at?: string | null;
  settings?: unknown;
}

/** What the defaults mean once the board's attributes are known. */
export interface ResolvedSettings {
  table: ViewSettings;
  column: ViewSettings;
  calendar: SettingsOfKind<'calendar'> & { date_kind: 'date' | 'date-range' | null };
  gantt: SettingsOfKind<'gantt'>;
  list: SettingsOfKind<'list'>;
  chart: SettingsOfKind<'chart'>;
  form: SettingsOfKind<'form'> & { fields: FormField[] };
  docs: SettingsOfKind<'docs'>;
}

/**
 * A view's effective settings: its saved settings, defaults filled in, and every attribute
 * reference checked against the board (a deleted or wrong-kind attribute falls back to the
 * default). Pure: the server, the views and the tests share it.
 *   calendar: the chosen date/date-range attribute, else the first of either kind;
 *   gantt: the chosen range (or start + end), else the first date-range, else the first two dates;
 *   column: group_by when it is a status or a single-choice label, else the first such attribute;
 *   list: group_by as saved; absent, the first status, else the first label (null = no groups);
 *   chart: the chosen attributes (up to 7), else the first status or label attribute;
 *   form: the chosen fields that name a live attribute of a form kind (once each), else every
 *     such attribute in the board's order (the name required); still disabled until turned on.
 */
export function resolveViewSettings<K extends ViewKind>(kind: K, saved: unknown, attributes: readonly ViewAttribute[]): ResolvedSettings[K] {
  const live = attributes.filter((a) => !a.deleted_at);
  const byId = new Map(live.map((a) => [a.id, a]));
  const ofKind = (id: string | null, kinds: readonly string[]) => (id !== null && kinds.includes(byId.get(id)?.kind ?? '') ? id : null);
  const first = (kinds: readonly string[]) => live.find((a) => kinds.includes(a.kind))?.id ?? null;
  const savedMap = saved && typeof saved === 'object' ? (saved as Record<string, unknown>) : {};

  switch (kind) {
    case 'calendar': {
      const s = kindSettingsOf('calendar', saved);
      const id = ofKind(s.date_attribute_id, DATE_KINDS) ?? first(DATE_KINDS);
      const dateKind = id === null ? null : (byId.get(id)!.kind as 'date' | 'date-range');
      return { ...s, date_attribute_id: id, date_kind: dateKind } as ResolvedSettings[K];
    }
    case 'gantt': {
      const s = kindSettingsOf('gantt', saved);
      const range = ofKind(s.range_attribute_id, ['date-range']);
      const start = ofKind(s.start_attribute_id, ['date']);
      const end = ofKind(s.end_attribute_id, ['date']);
      if (range) return { ...s, range_attribute_id: range, start_attribute_id: null, end_attribute_id: null } as ResolvedSettings[K];
      if (start && end) return { ...s, range_attribute_id: null, start_attribute_id: start, end_attribute_id: end } as ResolvedSettings[K];
      const firstRange = first(['date-range']);
      if (firstRange) return { ...s, range_attribute_id: firstRange, start_attribute_id: null, end_attribute_id: null } as ResolvedSettings[K];
      const dates = live.filter((a) => a.kind === 'date').map((a) => a.id);
      // One date attribute alone still draws one-day bars (start = end).
      return { ...s, range_attribute_id: null, start_attribute_id: dates[0] ?? null, end_attribute_id: dates[1] ?? dates[0] ?? null } as ResolvedSettings[K];
    }
    case 'column': {
      // A kanban always groups: by a status, or a label that holds one option at a time.
      const s = kindSettingsOf('column', saved);
      const columnable = (a: ViewAttribute | undefined) => !!a && (a.kind === 'status' || (a.kind === 'label' && !(a.settings as { multiple?: boolean } | null | undefined)?.multiple));
      const chosen = s.group_by !== null && columnable(byId.get(s.group_by)) ? s.group_by : null;
      return { ...s, group_by: chosen ?? live.find((a) => a.kind === 'status')?.id ?? live.find(columnable)?.id ?? null } as ResolvedSettings[K];
    }
    case 'list': {
      const s = kindSettingsOf('list', saved);
      const chosen = s.group_by !== null && byId.has(s.group_by) ? s.group_by : null;
      const group = 'group_by' in savedMap ? chosen : (first(['status']) ?? first(['label']));
      return { ...s, group_by: group } as ResolvedSettings[K];
    }
    case 'chart': {
      const s = kindSettingsOf('chart', saved);
      const ids = s.attribute_ids.filter((id) => byId.has(id));
      const fallback = first(['status']) ?? first(['label']);
      const sum = ofKind(s.sum_attribute_id, ['number']);
      return { ...s, attribute_ids: ids.length ? ids : fallback ? [fallback] : [], sum_attribute_id: sum, aggregate: s.aggregate === 'sum' && sum ? 'sum' : 'count' } as ResolvedSettings[K];
    }
    case 'form': {
      const s = kindSettingsOf('form', saved);
      const askable = (id: string) => (FORM_FIELD_KINDS as readonly string[]).includes(byId.get(id)?.kind ?? '');
      const seen = new Set<string>();
      const fields = s.fields
        ? s.fields.filter((f) => askable(f.attribute_id) && !seen.has(f.attribute_id) && seen.add(f.attribute_id))
        : live.filter((a) => askable(a.id)).map((a) => ({ attribute_id: a.id, label: '', help: '', required: a.kind === 'primary' }));
      return { ...s, fields } as unknown as ResolvedSettings[K];
    }
    default:
      return kindSettingsOf(kind, saved) as ResolvedSettings[K];
  }
}

/**
 * Views the plan gates (workspace.md says "some Pro-only" but names none; decisions 0120, 0260):
 * the PRO_VIEW_KINDS above. A kind listed here shows the upgrade message instead of the view.
 */
export const PRO_ONLY_VIEW_KINDS: readonly ViewKind[] = PRO_VIEW_KINDS;

export type ViewVisibility = 'shared' | 'personal' | 'locked';

export interface ViewLike {
  visibility?: ViewVisibility | string | null;
  owner_id?: number | null;
}

export interface ViewActor {
  userId: number | null;
  /** The workspace owner sees everyone's personal views (workspace.md §6). */
  isWorkspaceOwner: boolean;
  /** EDIT_LOCKED_VIEWS on the view's folder. */
  canEditLocked: boolean;
  /** CUSTOMIZE_VIEW on the view's folder. */
  canCustomize: boolean;
}

export const ViewMessages = {
  personalOnlyByOwner: 'Only the view owner can make a view personal.',
  lockedNeedsPermission: 'This view is locked.',
  notYours: 'This is somebody else’s personal view.',
  noPermission: 'This action is unauthorized.',
} as const;

/** Whether the actor sees the view at all: personal views belong to their owner (and the workspace owner). */
export function canSeeView(view: ViewLike, actor: ViewActor): boolean {
  if (view.visibility !== 'personal') return true;
  return actor.isWorkspaceOwner || (actor.userId !== null && view.owner_id === actor.userId);
}

/**
 * Why the actor may not change a view from `before` to `after` (null = allowed). A new view has
 * `before` null. Mirrors the server's rule (server/sync/rules.ts folderViewRules).
 */
export function viewChangeProblem(before: ViewLike | null, after: ViewLike, actor: ViewActor): string | null {
  const owner = before ? (before.owner_id ?? null) : actor.userId;
  const isOwner = actor.userId !== null && owner === actor.userId;
  const becomesPersonal = after.visibility === 'personal' && (!before || before.visibility !== 'personal');
  if (becomesPersonal && !isOwner) return ViewMessages.personalOnlyByOwner;
  if (before?.visibility === 'personal' && !isOwner && !actor.isWorkspaceOwner) return ViewMessages.notYours;
  if (!actor.canCustomize) return ViewMessages.noPermission;
  const touchesLock = before?.visibility === 'locked' || (after.visibility === 'locked' && before?.visibility !== 'locked');
  if (touchesLock && !actor.canEditLocked) return ViewMessages.lockedNeedsPermission;
  return null;
}

/** A view's settings edit (sort, widths…) is allowed when the view could be saved by the actor. */
export function canChangeView(view: ViewLike, actor: ViewActor): boolean {
  return viewChangeProblem(view, view, actor) === null;
}
