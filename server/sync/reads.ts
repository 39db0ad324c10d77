import { sql } from 'kysely';
import type { FolderRecord } from '../../schema/records';
import { timeTrackingSettings } from '../../schema/records';
import type { PermissionLevel } from '../../schema/permissions';
import { canView, chainTo, type TeamRow } from './access';
import type { Db, WireRecord } from './store';
import type { PermissionUser } from '../../schema/permissions';

/**
 * THE read rule (docs/decisions/0090-realtime-read-scope.md): what a user (or an anonymous visitor
 * of a public board) may read in a team — which boards and folders they can view, and the
 * per-collection rules (personal views; time entries of others when the attribute does not share
 * entries; children of items in folders they cannot see). Index loads, /changes, the trash list,
 * comments, time tracking and every realtime event ask this class and nothing else.
 *
 * Split in two so a realtime event can be judged for many subscribers at once: the facts about a
 * record's parents (ReadContext, database) are loaded once, and `canRead` (no database) answers
 * per viewer.
 */
export class ReadView {
  private readonly visible = new Map<string, boolean>();
  /** Every folder of the team, trashed ones included: a trashed hidden folder still hides its content. */
  private readonly folderBoard = new Map<string, string>();
  private readonly byBoard = new Map<string, Map<string, FolderRecord>>();
  /** Boards that are not in the trash. */
  private readonly liveBoards = new Set<string>();
  /** Boards this reader may not read in this request although the permissions allow it (a board password not given). */
  private readonly locked = new Set<string>();

  constructor(
    readonly team: TeamRow,
    readonly viewer: PermissionUser,
    folders: TeamFolders,
  ) {
    for (const { folder, trashed } of folders) {
      this.folderBoard.set(folder.id, folder.board_id);
      let map = this.byBoard.get(folder.board_id);
      if (!map) this.byBoard.set(folder.board_id, (map = new Map()));
      map.set(folder.id, folder);
      if (folder.parent_id === null && folder.id === folder.board_id && !trashed) this.liveBoards.add(folder.id);
    }
  }

  static async open(db: Db, team: TeamRow, viewer: PermissionUser): Promise<ReadView> {
    return new ReadView(team, viewer, await loadTeamFolders(db, team.id));
  }

  boardIds(): string[] {
    return [...this.liveBoards];
  }

  boardExists(boardId: string): boolean {
    return this.liveBoards.has(boardId);
  }

  /**
   * Takes boards out of the view for this request: a guest's read of a password-protected board
   * they have not unlocked (read-scope.ts). Their folders and content are filtered like hidden ones.
   */
  lock(boardIds: Iterable<string>): void {
    for (const id of boardIds) this.locked.add(id);
    this.visible.clear();
  }

  chain(folderId: string): PermissionLevel[] | null {
    const boardId = this.folderBoard.get(folderId);
    if (!boardId) return null;
    return chainTo(this.team, this.byBoard.get(boardId)!, folderId);
  }

  /** VIEW_BOARD for a board, VIEW_FOLDER (and its parents') for a folder; false for unknown ids. */
  canViewFolder(folderId: string): boolean {
    let result = this.visible.get(folderId);
    if (result === undefined) {
      const boardId = this.folderBoard.get(folderId);
      const chain = boardId === undefined || this.locked.has(boardId) ? null : this.chain(folderId);
      result = chain !== null && canView(this.viewer, chain);
      this.visible.set(folderId, result);
    }
    return result;
  }

  /**
   * Whether a record in this folder is readable. Trashed folders are part of the view: the content
   * of a trashed open folder stays readable (a client has it when the folder is restored), that of
   * a trashed hidden folder stays hidden. A folder gone for good leaves the board's rule.
   */
  canViewIn(folderId: string, boardId: string): boolean {
    if (!this.canViewFolder(boardId)) return false;
    return this.folderBoard.has(folderId) ? this.canViewFolder(folderId) : true;
  }

  /** Whether some folder of the board is hidden from this viewer (then item children need a closer look). */
  hasHiddenFolders(boardId: string): boolean {
    const folders = this.byBoard.get(boardId);
    if (!folders) return false;
    for (const id of folders.keys()) if (!this.canViewFolder(id)) return true;
    return false;
  }

  /**
   * Whether this viewer may read the record. `context` holds the parents a child record needs
   * (loadReadContext); a child whose parent is not in it is not readable when the board hides
   * some folder from the viewer (fail closed).
   */
  canRead(collection: string, record: WireRecord, context: ReadContext): boolean {
    const boardId = record.board_id;
    if (typeof boardId !== 'string' || !this.canViewFolder(boardId)) return false;
    switch (collection) {
      case 'folder':
        return this.canViewFolder(record.id);
      case 'item':
      case 'attribute':
        return this.canViewIn(String(record.folder_id), boardId);
      case 'folder_view':
        return this.canViewIn(String(record.folder_id), boardId) && this.mayReadView(record);
      case 'time_entry':
        return this.mayReadEntry(record, context) && this.onVisibleItem(boardId, typeof record.item_id === 'string' ? record.item_id : undefined, context);
      case 'value':
      case 'comment':
      case 'button_click':
      case 'doc_update':
        return this.onVisibleItem(boardId, typeof record.item_id === 'string' ? record.item_id : undefined, context);
      case 'comment_reaction': {
        const commentId = typeof record.comment_id === 'string' ? record.comment_id : undefined;
        return this.onVisibleItem(boardId, commentId === undefined ? undefined : context.commentItem.get(commentId), context);
      }
      case 'automation':
        // Rules name webhook addresses and people: the workspace's members read them, not visitors.
        return this.viewer.role !== 'guest';
      default:
        return true;
    }
  }

  /** The subset of the records this viewer may read (records of one collection, any boards). */
  async filter(db: Db, collection: string, records: WireRecord[]): Promise<WireRecord[]> {
    const out = records.filter((r) => this.canViewFolder(r.board_id));
    if (out.length === 0) return out;
    // Item parents matter only on boards that hide a folder from this viewer.
    const boards = [...new Set(out.map((r) => r.board_id))].filter((b) => this.hasHiddenFolders(b));
    const context = await loadReadContext(db, this.team.id, collection, out, { itemsOfBoards: boards });
    return out.filter((r) => this.canRead(collection, r, context));
  }

  /** Personal views are their owner's (the workspace owner sees everyone's, workspace.md §6). */
  private mayReadView(view: WireRecord): boolean {
    if (view.visibility !== 'personal') return true;
    return this.viewer.role === 'owner' || (this.viewer.id !== null && view.owner_id === this.viewer.id);
  }

  /** When an attribute's sharedEntries is off, a user sees only their own time entries. */
  private mayReadEntry(entry: WireRecord, context: ReadContext): boolean {
    if (!context.privateAttributes.has(String(entry.attribute_id))) return true;
    return this.viewer.id !== null && entry.created_by === this.viewer.id;
  }

  /** A child of an item is readable where its item is (every child is, on a board hiding nothing from the viewer). */
  private onVisibleItem(boardId: string, itemId: string | undefined, context: ReadContext): boolean {
    if (!this.hasHiddenFolders(boardId)) return true;
    const folder = itemId === undefined ? undefined : context.itemFolder.get(itemId);
    return folder !== undefined && this.canViewIn(folder, boardId);
  }
}

export type TeamFolders = { folder: FolderRecord; trashed: boolean }[];

/** Every folder of a team with whether it is in the trash (one query; shared by many views). */
export async function loadTeamFolders(db: Db, teamId: number): Promise<TeamFolders> {
  const rows = await db.selectFrom('records').select(['data', 'deleted_at']).where('team_id', '=', teamId).where('collection', '=', 'folder').execute();
  return rows.map((r) => ({ folder: r.data as unknown as FolderRecord, trashed: r.deleted_at !== null }));
}

/** The parents the read rule needs for child records, the same for every viewer. */
export interface ReadContext {
  /** item id → the folder it is in. */
  itemFolder: Map<string, string>;
  /** comment id → the item it is on (for reactions). */
  commentItem: Map<string, string>;
  /** Time-tracking attributes whose entries only their author may read (sharedEntries off). */
  privateAttributes: Set<string>;
}

export const emptyReadContext = (): ReadContext => ({ itemFolder: new Map(), commentItem: new Map(), privateAttributes: new Set() });

/**
 * Loads the parents of these records. Items are looked up by id, or — for a large read — every
 * item of `itemsOfBoards` (the boards where some folder is hidden from the reader; elsewhere
 * parents do not matter).
 */
export async function loadReadContext(db: Db, teamId: number, collection: string, records: WireRecord[], opts: { itemsOfBoards?: string[] } = {}): Promise<ReadContext> {
  const context = emptyReadContext();
  const strings = (values: unknown[]) => [...new Set(values.filter((v): v is string => typeof v === 'string'))];
  if (collection === 'time_entry') {
    const attributeIds = strings(records.map((r) => r.attribute_id));
    for (const part of chunks(attributeIds)) {
      const rows = await db.selectFrom('records').select(['id', 'data']).where('collection', '=', 'attribute').where('team_id', '=', teamId).where('id', 'in', part).execute();
      for (const row of rows) {
        const settings = timeTrackingSettings.safeParse((row.data as { settings?: unknown }).settings ?? {});
        if (settings.success && !settings.data.sharedEntries) context.privateAttributes.add(row.id);
      }
    }
  }
  if (!['time_entry', 'value', 'comment', 'comment_reaction', 'button_click', 'doc_update'].includes(collection)) return context;
  const boards = opts.itemsOfBoards;
  if (boards !== undefined && boards.length === 0) return context;
  let itemIds: string[];
  if (collection === 'comment_reaction') {
    const commentIds = strings(records.map((r) => r.comment_id));
    for (const part of chunks(commentIds)) {
      const rows = await db.selectFrom('records').select(['id', sql<string>`data->>'item_id'`.as('item_id')]).where('collection', '=', 'comment').where('team_id', '=', teamId).where('id', 'in', part).execute();
      for (const row of rows) if (row.item_id) context.commentItem.set(row.id, row.item_id);
    }
    itemIds = [...new Set(context.commentItem.values())];
  } else {
    itemIds = strings(records.map((r) => r.item_id));
  }
  const byBoard = boards !== undefined && itemIds.length > 1000;
  const parts = byBoard ? [null] : chunks(itemIds);
  for (const part of parts) {
    let query = db.selectFrom('records').select(['id', sql<string>`data->>'folder_id'`.as('folder_id')]).where('team_id', '=', teamId).where('collection', '=', 'item');
    query = part === null ? query.where('board_id', 'in', boards!) : query.where('id', 'in', part);
    for (const row of await query.execute()) if (row.folder_id) context.itemFolder.set(row.id, row.folder_id);
  }
  return context;
}

function chunks<T>(list: T[], size = 1000): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}
