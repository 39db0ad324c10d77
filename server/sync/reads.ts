import { sql } from 'kysely';
import type { FolderRecord } from '../../schema/records';
import { timeTrackingSettings } from '../../schema/records';
import type { PermissionLevel } from '../../schema/permissions';
import { canView, chainTo, type TeamRow } from './access';
import type { Db, WireRecord } from './store';
import { teamFolders } from './store';
import type { PermissionUser } from '../../schema/permissions';

/**
 * What a user (or an anonymous visitor of a public board) may read in a team: which boards and
 * folders they can view, and the per-collection read rules (personal views; time entries of
 * others when the attribute does not share entries). Built once per read request.
 */
export class ReadView {
  private readonly visible = new Map<string, boolean>();
  private readonly folderBoard = new Map<string, string>();
  private readonly byBoard = new Map<string, Map<string, FolderRecord>>();
  /** Boards this reader may not read in this request although the permissions allow it (a board password not given). */
  private readonly locked = new Set<string>();

  private constructor(
    readonly team: TeamRow,
    readonly viewer: PermissionUser,
    folders: FolderRecord[],
  ) {
    for (const folder of folders) {
      this.folderBoard.set(folder.id, folder.board_id);
      let map = this.byBoard.get(folder.board_id);
      if (!map) this.byBoard.set(folder.board_id, (map = new Map()));
      map.set(folder.id, folder);
    }
  }

  static async open(db: Db, team: TeamRow, viewer: PermissionUser): Promise<ReadView> {
    const folders = (await teamFolders(db, team.id)).map((r) => r.data as unknown as FolderRecord);
    return new ReadView(team, viewer, folders);
  }

  boardIds(): string[] {
    return [...this.byBoard.keys()].filter((id) => this.byBoard.get(id)!.get(id)?.parent_id === null);
  }

  boardExists(boardId: string): boolean {
    return this.byBoard.get(boardId)?.get(boardId)?.parent_id === null;
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
   * Whether a record in this folder is readable. A folder in the trash is not in the view: its
   * content stays readable to whoever sees the board, so a client has it when the folder is restored
   * (clients show only records whose folder they have).
   */
  canViewIn(folderId: string, boardId: string): boolean {
    return this.folderBoard.has(folderId) ? this.canViewFolder(folderId) : this.canViewFolder(boardId);
  }

  /** Whether some folder of the board is hidden from this viewer (then item children need a closer look). */
  hasHiddenFolders(boardId: string): boolean {
    const folders = this.byBoard.get(boardId);
    if (!folders) return false;
    for (const id of folders.keys()) if (!this.canViewFolder(id)) return true;
    return false;
  }

  /** The subset of the records this viewer may read (records of several collections and boards). */
  async filter(db: Db, collection: string, records: WireRecord[]): Promise<WireRecord[]> {
    let out = records.filter((r) => this.canViewFolder(r.board_id));
    if (out.length === 0) return out;
    switch (collection) {
      case 'folder':
        return out.filter((r) => this.canViewFolder(r.id));
      case 'item':
      case 'attribute':
        return out.filter((r) => this.canViewIn(String(r.folder_id), r.board_id));
      case 'folder_view':
        return out.filter((r) => this.canViewIn(String(r.folder_id), r.board_id) && this.mayReadView(r));
      case 'time_entry':
        out = await this.withoutPrivateEntries(db, out);
        return this.onVisibleItems(db, out);
      case 'value':
      case 'comment':
        return this.onVisibleItems(db, out);
      default:
        return out;
    }
  }

  /** Personal views are their owner's (the workspace owner sees everyone's, workspace.md §6). */
  private mayReadView(view: WireRecord): boolean {
    if (view.visibility !== 'personal') return true;
    return this.viewer.role === 'owner' || (this.viewer.id !== null && view.owner_id === this.viewer.id);
  }

  /** Drops records whose item sits in a folder the viewer cannot see. */
  private async onVisibleItems(db: Db, records: WireRecord[]): Promise<WireRecord[]> {
    const boards = [...new Set(records.map((r) => r.board_id))].filter((b) => this.hasHiddenFolders(b));
    if (boards.length === 0) return records;
    const rows = await db
      .selectFrom('records')
      .select(['id', sql<string>`data->>'folder_id'`.as('folder_id')])
      .where('team_id', '=', this.team.id)
      .where('collection', '=', 'item')
      .where('board_id', 'in', boards)
      .execute();
    const folderOf = new Map(rows.map((r) => [r.id, r.folder_id]));
    return records.filter((r) => {
      if (!boards.includes(r.board_id) || typeof r.item_id !== 'string') return true;
      const folder = folderOf.get(r.item_id);
      return folder !== undefined && this.canViewIn(folder, r.board_id);
    });
  }

  /** When an attribute's sharedEntries is off, a user sees only their own time entries. */
  private async withoutPrivateEntries(db: Db, entries: WireRecord[]): Promise<WireRecord[]> {
    const attributeIds = [...new Set(entries.map((e) => e.attribute_id).filter((a): a is string => typeof a === 'string'))];
    if (attributeIds.length === 0) return entries;
    const rows = await db
      .selectFrom('records')
      .select(['id', 'data'])
      .where('collection', '=', 'attribute')
      .where('team_id', '=', this.team.id)
      .where('id', 'in', attributeIds)
      .execute();
    const privateAttributes = new Set(
      rows.filter((r) => {
        const settings = timeTrackingSettings.safeParse((r.data as { settings?: unknown }).settings ?? {});
        return settings.success && !settings.data.sharedEntries;
      }).map((r) => r.id),
    );
    return entries.filter((e) => !privateAttributes.has(String(e.attribute_id)) || (this.viewer.id !== null && e.created_by === this.viewer.id));
  }
}
