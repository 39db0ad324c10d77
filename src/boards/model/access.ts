import { explain, HIDDEN_ENTRY, PUBLIC_ENTRIES, type PermissionEntries, type PermissionLevel, type PermissionName, type RoleOrGuest } from '../../../schema/permissions';
import type { FolderLike } from './tree';

/**
 * The client's side of the permission model (schema/permissions.ts): builds the chain
 * workspace → board → folders from local folder records, the way the server does
 * (server/sync/access.ts folderLevel), to grey out what the user may not do. The server still
 * decides; this only avoids offering actions that would be refused.
 */

export interface AccessFolder extends FolderLike {
  is_public?: boolean | null;
  permissions?: PermissionEntries | null;
  final_permissions?: string[] | null;
  user_ids?: number[] | null;
  created_by?: number | null;
}

export interface Workspace {
  id: number;
  owner_id: number | null;
  permissions: PermissionEntries;
}

export interface Viewer {
  id: number | null;
  role: RoleOrGuest;
}

/** One folder as a level of the chain: the hidden and public toggles become entries. */
export function folderLevel(folder: AccessFolder): PermissionLevel {
  const isBoard = folder.parent_id === null;
  const permissions: PermissionEntries = { ...(folder.permissions ?? {}) };
  if (isBoard && folder.is_public) Object.assign(permissions, PUBLIC_ENTRIES);
  if (folder.hidden) permissions[HIDDEN_ENTRY] = 'deny';
  return {
    type: isBoard ? 'board' : 'folder',
    id: folder.id,
    permissions,
    final_permissions: folder.final_permissions ?? [],
    user_ids: folder.user_ids && folder.user_ids.length > 0 ? folder.user_ids : null,
    created_by: folder.created_by ?? null,
  };
}

export function chainTo(workspace: Workspace, folders: ReadonlyMap<string, AccessFolder>, folderId: string): PermissionLevel[] | null {
  const path: AccessFolder[] = [];
  const seen = new Set<string>();
  for (let current: string | null = folderId; current !== null; current = folders.get(current)?.parent_id ?? null) {
    if (seen.has(current)) return null;
    seen.add(current);
    const folder = folders.get(current);
    if (!folder) return null;
    path.unshift(folder);
  }
  return [{ type: 'workspace', id: workspace.id, permissions: workspace.permissions, created_by: workspace.owner_id }, ...path.map(folderLevel)];
}

export interface BoardAccess {
  /** May the viewer do this on the folder (or board), for a thing created by `createdBy`? */
  can(permission: PermissionName, folderId: string, createdBy?: number | null): boolean;
}

export function boardAccess(workspace: Workspace, viewer: Viewer, folders: readonly AccessFolder[]): BoardAccess {
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
      return explain({ permission, user: viewer, chain, ...(createdBy !== undefined ? { createdBy } : {}) }).allowed;
    },
  };
}
