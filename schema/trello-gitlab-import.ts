import { z } from 'zod';

/**
 * Trello and Gitlab imports (issue #16, decision 0220, docs/imports.md): the bodies of their
 * routes and the texts they answer with. Pure: the import screens and the server read the same.
 */

/** The largest export file (or API answer) one import takes. */
export const EXTERNAL_IMPORT_MAX_BYTES = 40 * 1024 * 1024;
/** At most this many cards or issues per import (the CSV import's row limit). */
export const EXTERNAL_IMPORT_MAX_ITEMS = 100_000;

export const ImportMessages = {
  /** workspace.md §5, "choose at least one list to import". */
  chooseList: 'choose at least one list to import',
  /** workspace.md §9, "Trello data loading error". */
  trelloLoading: 'Trello data loading error',
  notTrello: 'This file is not a Trello board export (a JSON file from Trello’s “Print and export”).',
  trelloNotConfigured: 'Trello is not connected on this server: import a Trello export file instead.',
  trelloToken: 'Trello did not accept the connection. Connect to Trello again.',
  gitlabLoading: 'Gitlab data loading error',
  notGitlab: 'This file is not a Gitlab issues export (the CSV export or the issues JSON of the API).',
  gitlabSource: 'Give a Gitlab export file, or a Gitlab address, project and token.',
  gitlabToken: 'Gitlab did not accept the token.',
  gitlabProject: 'Gitlab has no project at that path (or the token may not read it).',
  noItems: 'There is nothing to import.',
  tooMany: (max: number) => `An import cannot exceed ${max} items.`,
  tooLarge: (mb: number) => `The file is too large. It must be under ${mb} MB.`,
} as const;

const id64 = z.string().min(1).max(64);

/** How Trello lists come over: one subfolder per list, or one label value per list. */
export const TRELLO_LISTS_AS = ['folders', 'labels'] as const;
export type TrelloListsAs = (typeof TRELLO_LISTS_AS)[number];

/** POST /api/{teamId}/boards/{boardId}/imports/trello */
export const trelloImportBody = z
  .strictObject({
    folder_id: id64,
    lists_as: z.enum(TRELLO_LISTS_AS).default('folders'),
    /** The Trello lists whose cards come over ("choose at least one list to import"). */
    list_ids: z.array(id64).min(1, ImportMessages.chooseList).max(5000),
    /** Archived cards too (they are left out by default). */
    include_archived: z.boolean().default(false),
    /** The offline path: the board export file's name and its parsed JSON. */
    file_name: z.string().max(255).optional(),
    board: z.unknown().optional(),
    /** The API path: a Trello board id and the member's token (from Trello's authorize page). */
    trello_board_id: id64.optional(),
    token: z.string().min(1).max(512).optional(),
  })
  .refine((b) => (b.board !== undefined) !== (b.trello_board_id !== undefined && b.token !== undefined), 'give a Trello export (board) or a Trello board id and token');
export type TrelloImportBody = z.infer<typeof trelloImportBody>;

/** POST /api/{teamId}/imports/trello/boards[/{trelloBoardId}]: the member's token from Trello's authorize page. */
export const trelloTokenBody = z.strictObject({ token: z.string().min(1).max(512) });

/** POST /api/{teamId}/boards/{boardId}/imports/gitlab */
export const gitlabImportBody = z
  .strictObject({
    folder_id: id64,
    /** The offline path: the export's name and text (the issues CSV, or the issues JSON of the API). */
    file_name: z.string().max(255).optional(),
    content: z.string().min(1).max(EXTERNAL_IMPORT_MAX_BYTES, ImportMessages.tooLarge(EXTERNAL_IMPORT_MAX_BYTES / 1024 / 1024)).optional(),
    /** The API path: the Gitlab address (https://gitlab.example.com), the project's path or id, a token with read_api. */
    url: z.string().trim().url().max(2000).optional(),
    project: z.string().trim().min(1).max(500).optional(),
    token: z.string().trim().min(1).max(512).optional(),
  })
  .refine((b) => (b.content !== undefined) !== (b.url !== undefined && b.project !== undefined && b.token !== undefined), ImportMessages.gitlabSource);
export type GitlabImportBody = z.infer<typeof gitlabImportBody>;

/** What the Trello screens list: a member's boards, and one board's lists with their card counts. */
export interface TrelloBoardSummary {
  id: string;
  name: string;
  url?: string;
  closed?: boolean;
}
export interface TrelloListSummary {
  id: string;
  name: string;
  closed: boolean;
  cards: number;
}
export interface TrelloBoardLists {
  id: string;
  name: string;
  lists: TrelloListSummary[];
}

/** GET /api/imports/trello/config: whether the API path is open, and where Trello's authorize page is. */
export interface TrelloConfig {
  enabled: boolean;
  /** Trello's authorize page with the key, scope and expiry; the app adds `return_url`. */
  authorize_url: string | null;
}

/** A Trello board export's lists with their card counts (the file path reads this in the browser). */
export function trelloListsOf(board: unknown): TrelloBoardLists | null {
  if (!board || typeof board !== 'object') return null;
  const b = board as { id?: unknown; name?: unknown; lists?: unknown; cards?: unknown };
  if (typeof b.name !== 'string' || !Array.isArray(b.lists) || !Array.isArray(b.cards)) return null;
  const counts = new Map<string, number>();
  for (const card of b.cards as { idList?: unknown; closed?: unknown }[]) {
    if (card && typeof card.idList === 'string' && card.closed !== true) counts.set(card.idList, (counts.get(card.idList) ?? 0) + 1);
  }
  const lists = (b.lists as { id?: unknown; name?: unknown; closed?: unknown; pos?: unknown }[])
    .filter((l) => l && typeof l.id === 'string')
    .sort((x, y) => (Number(x.pos) || 0) - (Number(y.pos) || 0))
    .map((l) => ({ id: String(l.id), name: typeof l.name === 'string' && l.name.trim() ? l.name : String(l.id), closed: l.closed === true, cards: counts.get(String(l.id)) ?? 0 }));
  return { id: typeof b.id === 'string' ? b.id : '', name: b.name, lists };
}
