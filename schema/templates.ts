import { z } from 'zod';

/**
 * Board templates (issue #16, decision 0165): what a template holds, what the API answers and
 * accepts. A template is a snapshot of a board (or folder): its subfolders, attributes, views and,
 * when saved with items, its items and their values. Ids inside a template are keys only: making
 * a board from it gives every record a new id and rewrites the references (view settings,
 * reference values) to the new ones.
 */

export const TemplateMessages = {
  /** shell.md §8: "template not available or not shared". */
  notAvailable: 'This template is not available or has not been shared with you.',
  /** workspace.md §8. */
  needsWorkspace: 'A template needs at least one workspace.',
} as const;

/** Built-in template ids are readable slugs; custom ones are random ids of 21 characters. */
export const TEMPLATE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The gallery's tags (their labels are translated by the app). */
export const TEMPLATE_TAGS = ['project-management', 'software', 'sales', 'marketing', 'hr', 'operations', 'planning', 'personal', 'custom'] as const;
export type TemplateTag = (typeof TEMPLATE_TAGS)[number];

/** Most items a template may carry (a bigger board is saved without items, or duplicated instead). */
export const TEMPLATE_MAX_ITEMS = 5_000;

const key = z.string().min(1).max(80);
const settings = z.record(z.string(), z.json());

/** Who may see a folder copied within its workspace (a duplicate); a template keeps only `hidden` (decision 0359). */
export const folderAccess = z.object({ hidden: z.boolean(), user_ids: z.array(z.number().int()).max(10_000), permissions: z.record(z.string(), z.string()), final_permissions: z.array(z.string()) }).partial();
export const templateFolder = z.object({ id: key, parent_id: key.nullable(), name: z.string().trim().min(1).max(255), position: z.number().finite(), access: folderAccess.optional() });
export const templateAttribute = z.object({ id: key, folder_id: key, name: z.string().trim().min(1).max(255), kind: z.string().min(1).max(64), position: z.number().finite(), hidden: z.boolean().optional(), settings });
export const templateView = z.object({ id: key, folder_id: key, name: z.string().trim().min(1).max(255), kind: z.string().min(1).max(64), position: z.number().finite(), settings });
/**
 * A value is stored as it would be saved, except that a date may be written relative to the day
 * the board is made: `{"$days": 7}`, and a date range `{"$days": [0, 14]}` (built-in examples stay current).
 */
export const templateItem = z.object({ id: key, folder_id: key, name: z.string().max(10_000), position: z.number().finite(), values: z.record(key, z.json()) });

/** An automation of a template (its trigger, conditions and actions as saved; they land switched off). */
export const templateAutomation = z.object({
  id: key,
  name: z.string().max(255),
  enabled: z.boolean(),
  trigger: z.record(z.string(), z.json()).nullable(),
  conditions: z.array(z.json()).max(50),
  match: z.enum(['all', 'any']),
  actions: z.array(z.record(z.string(), z.json())).max(20),
  position: z.number().finite(),
});

export const templateContent = z.object({
  /** The template's root folder (the board made from it). */
  root_id: key,
  folders: z.array(templateFolder).max(500),
  attributes: z.array(templateAttribute).max(500),
  views: z.array(templateView).max(500),
  items: z.array(templateItem).max(TEMPLATE_MAX_ITEMS),
  /** The board's automations (decision 0226): ids in them are keys like everywhere in a content. */
  automations: z.array(templateAutomation).max(200).optional(),
});
export type TemplateContent = z.infer<typeof templateContent>;

/** A relative date of a template value (see templateItem). */
export const relativeDays = z.object({ $days: z.union([z.number().int().min(-3650).max(3650), z.tuple([z.number().int().min(-3650).max(3650), z.number().int().min(-3650).max(3650)])]) });

/** A template as the API lists it (no content). */
export interface TemplateSummary {
  id: string;
  builtin: boolean;
  name: string;
  description: string;
  /** A cover image (uploaded file URL) or null. */
  cover_url: string | null;
  /** Built-ins: a colour for the card. */
  color: string | null;
  tags: string[];
  owner_id: number | null;
  owner_name: string | null;
  with_items: boolean;
  /** Workspaces it is shared with (its owner sees them; others see []). */
  shared_team_ids: number[];
  /** Anyone signed in who has the link may open and use it. */
  link_shared: boolean;
  counts: { folders: number; attributes: number; views: number; items: number };
  created_at: string | null;
  updated_at: string | null;
}

/** One template with its content (the landing page shows attributes, views and a few items). */
export interface TemplateDetail extends TemplateSummary {
  content: TemplateContent;
  /** The caller may edit and share it (its owner). */
  mine: boolean;
}

const name = z.string().trim().min(1, 'enter the template name').max(255);
const description = z.string().max(2000);
const tags = z.array(z.string().trim().min(1).max(40)).max(10);
const coverUrl = z
  .string()
  .max(2000)
  .regex(/^(\/api\/files\/|https:\/\/)/, 'use an uploaded image or an https address')
  .nullable();

/** POST /api/:teamId/boards/:boardId/template */
export const saveAsTemplateBody = z.strictObject({
  name,
  description: description.optional(),
  /** A folder of the board to save instead of the whole board. */
  folder_id: z.string().min(1).max(64).optional(),
  with_items: z.boolean().default(false),
  tags: tags.optional(),
});

/** PUT /api/me/templates/:templateId */
export const editTemplateBody = z.strictObject({
  name: name.optional(),
  description: description.optional(),
  cover_url: coverUrl.optional(),
  tags: tags.optional(),
  /** The workspaces it is shared with, all of them ([] takes it out of every workspace). */
  shared_team_ids: z.array(z.number().int().positive()).max(100).optional(),
  link_shared: z.boolean().optional(),
});

/** POST /api/me/templates/:templateId/share: share with more workspaces (at least one). */
export const shareTemplateBody = z.strictObject({
  team_ids: z.array(z.number().int().positive()).max(100),
});

/** POST /api/:teamId/templates/:templateId/use */
export const useTemplateBody = z.strictObject({
  name: z.string().trim().min(1, 'enter the board name').max(255),
});

/** POST /api/:teamId/boards/:boardId/duplicate */
export const duplicateBoardBody = z.strictObject({
  name: z.string().trim().min(1, 'enter the board name').max(255),
  with_items: z.boolean().default(true),
  /** Values of the copied items (ignored without items). */
  with_values: z.boolean().default(true),
  with_views: z.boolean().default(true),
  /** The board's automations (needs MANAGE_AUTOMATIONS; a folder has none of its own). */
  with_automations: z.boolean().default(true),
  /** The copied items' comments, with their authors (ignored without items). */
  with_comments: z.boolean().default(false),
});
export type DuplicateBoardBody = z.input<typeof duplicateBoardBody>;
/** A folder duplicated beside itself (decision 0226): the folder and the same choices. */
export const duplicateFolderBody = duplicateBoardBody.extend({ folder_id: z.string().min(1).max(64) });
export type DuplicateFolderBody = z.input<typeof duplicateFolderBody>;

/** Counts of a content, for cards. */
export function contentCounts(content: TemplateContent): TemplateSummary['counts'] {
  return { folders: content.folders.length, attributes: content.attributes.length, views: content.views.length, items: content.items.length };
}
