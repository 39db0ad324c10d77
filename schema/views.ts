import { z } from 'zod';

/**
 * Folder views (folder_view records): what a Table or Column view shows and who may see or change
 * it (workspace.md §4 "View: shared, personal or locked", §6 "only the view owner can make a view
 * personal"; "edit locked views" is EDIT_LOCKED_VIEWS). Pure: zod only.
 *
 * The record itself is schema/records.ts `folderViewRecord`; this file types its `settings`.
 */

export const VIEW_KINDS = ['table', 'column'] as const;
export type ViewKind = (typeof VIEW_KINDS)[number];

export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export const sortRule = z.object({
  /** An attribute id, or "name" for the primary (the item's name), "created_at" for creation time. */
  attribute_id: z.string().min(1).max(64),
  direction: z.enum(SORT_DIRECTIONS).default('asc'),
});
export type SortRule = z.infer<typeof sortRule>;

export const FILTER_OPS = ['is', 'is-not', 'contains', 'not-contains', 'empty', 'not-empty', 'gt', 'lt'] as const;
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
