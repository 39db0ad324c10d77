/**
 * The permission chain, built once for both sides: workspace → board → folders, each a level of
 * the model in schema/permissions.ts. The server asks it on every write and read
 * (server/sync/access.ts); the app asks it to grey out what would be refused
 * (src/boards/model/access.ts). Both used to build the chain themselves and drifted: the app did
 * not turn a hidden board into its VIEW_BOARD entry. Pure functions, no I/O.
 */
import { entryKey, explain, HIDDEN_ENTRY, PUBLIC_ENTRIES, type PermissionEntries, type PermissionLevel, type PermissionName, type PermissionUser } from './permissions';

/** The fields of a folder record the chain reads (a board is a folder with parent_id null). */
export interface ChainFolder {
  id: string;
  parent_id: string | null;
  hidden?: boolean | null;
  is_public?: boolean | null;
  permissions?: PermissionEntries | null;
  final_permissions?: string[] | null;
  user_ids?: number[] | null;
  created_by?: number | null;
}

/** The fields of a workspace the chain reads. */
export interface ChainWorkspace {
  id: number;
  owner_id: number | null;
  permissions: PermissionEntries;
}

/** A hidden board shuts out non-members through its view permission (a folder: HIDDEN_ENTRY). */
export const HIDDEN_BOARD_ENTRY = entryKey('VIEW_BOARD', 'tag', 'board_locked_out');

/** A folder as one level of a chain; the UI toggles hidden / is_public become entries. */
export function folderLevel(folder: ChainFolder): PermissionLevel {
  const isBoard = folder.parent_id === null;
  const permissions: PermissionEntries = { ...(folder.permissions ?? {}) };
  if (isBoard && folder.is_public) Object.assign(permissions, PUBLIC_ENTRIES);
  // Hidden (private): only members see it. A board is asked VIEW_BOARD, a folder VIEW_FOLDER.
  if (folder.hidden) {
    permissions[HIDDEN_ENTRY] = 'deny';
    if (isBoard) permissions[HIDDEN_BOARD_ENTRY] = 'deny';
  }
  return {
    type: isBoard ? 'board' : 'folder',
    id: folder.id,
    permissions,
    final_permissions: folder.final_permissions ?? [],
    // An empty member list means "not restricted": everyone in the workspace belongs.
    user_ids: folder.user_ids && folder.user_ids.length > 0 ? folder.user_ids : null,
    created_by: folder.created_by ?? null,
  };
}

export function workspaceLevel(workspace: ChainWorkspace): PermissionLevel {
  return { type: 'workspace', id: workspace.id, permissions: workspace.permissions, created_by: workspace.owner_id };
}

/**
 * The chain from the workspace down to `folderId` (board first). Null when a folder on the way is
 * missing (a broken or foreign reference) or the parents loop.
 */
export function chainTo<F extends ChainFolder>(workspace: ChainWorkspace, folders: ReadonlyMap<string, F>, folderId: string): PermissionLevel[] | null {
  const path: F[] = [];
  const seen = new Set<string>();
  for (let current: string | null = folderId; current !== null; ) {
    if (seen.has(current)) return null; // a cycle: refuse rather than loop
    seen.add(current);
    const folder = folders.get(current);
    if (!folder) return null;
    path.unshift(folder);
    current = folder.parent_id;
  }
  return [workspaceLevel(workspace), ...path.map(folderLevel)];
}

/**
 * The one question: may this user do `permission` on the resource at the end of the chain.
 * `preview` (the app's pretend mode, decision 0280) answers yes to everything.
 */
export function allowedOn(user: PermissionUser, permission: PermissionName | string, chain: readonly PermissionLevel[], createdBy?: number | null, preview = false): boolean {
  return explain({ permission: permission as PermissionName, user, chain, createdBy, preview }).allowed;
}

/** The view permission of the chain's last level (VIEW_BOARD for a board, VIEW_FOLDER for a folder). */
export function canViewEnd(user: PermissionUser, chain: readonly PermissionLevel[]): boolean {
  const last = chain[chain.length - 1]!;
  return allowedOn(user, last.type === 'board' ? 'VIEW_BOARD' : 'VIEW_FOLDER', chain);
}
