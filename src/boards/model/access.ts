import type { PermissionEntries, PermissionLevel, PermissionName, RoleOrGuest } from '../../../schema/permissions';
import { allowedOn, chainTo, type ChainFolder, type ChainWorkspace } from '../../../schema/permission-chain';
import type { FolderLike } from './tree';

/**
 * The app's side of the permission model: the chain workspace → board → folders is built from
 * local folder records by the same module the server uses (schema/permission-chain.ts), to grey out
 * what the user may not do. The server still decides; this only avoids offering actions that
 * would be refused.
 */
export { chainTo, folderLevel } from '../../../schema/permission-chain';

export interface AccessFolder extends FolderLike, ChainFolder {
  is_public?: boolean | null;
  permissions?: PermissionEntries | null;
  final_permissions?: string[] | null;
  user_ids?: number[] | null;
  created_by?: number | null;
}

export type Workspace = ChainWorkspace;

export interface Viewer {
  id: number | null;
  role: RoleOrGuest;
}

export interface BoardAccess {
  /** May the viewer do this on the folder (or board), for a thing created by `createdBy`? */
  can(permission: PermissionName, folderId: string, createdBy?: number | null): boolean;
}

/**
 * `preview`: the tab is in preview (pretend) mode, where every permission answers allowed
 * (shell.md, workspace.md §4) — its edits stay in the tab's own preview engine (decision 0280).
 */
export function boardAccess(workspace: Workspace, viewer: Viewer, folders: readonly AccessFolder[], options: { preview?: boolean } = {}): BoardAccess {
  if (options.preview) return { can: () => true };
  const byId = new Map(folders.map((f) => [f.id, f]));
  const cache = new Map<string, PermissionLevel[] | null>();
  return {
    can(permission, folderId, createdBy) {
      let chain = cache.get(folderId);
      if (chain === undefined) {
        chain = chainTo(workspace, byId, folderId);
        cache.set(folderId, chain);
      }
      if (!chain) return false;
      return allowedOn(viewer, permission, chain, createdBy);
    },
  };
}
