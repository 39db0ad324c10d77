import { createContext, useContext } from 'react';
import type { PermissionName } from '../../schema/permissions';
import type { BoardActions } from './store/actions';
import type { BoardBackend } from './store/backend';
import type { Attribute, Folder } from './store/live';
import type { WorkspaceInfo } from './store/workspace-info';
import type { BoardAccess } from './model/access';
import type { FolderTree } from './model/tree';

/** Everything a board's parts share: the open board, its folders and attributes, commands and rights. */
export interface BoardState {
  backend: BoardBackend;
  teamId: number;
  boardId: string;
  board: Folder;
  folders: Folder[];
  tree: FolderTree<Folder>;
  /** Live attributes of the board in position order (hidden ones included). */
  attributes: Attribute[];
  actions: BoardActions;
  access: BoardAccess;
  info: WorkspaceInfo | null;
  /** Read-only: an anonymous visitor, or a member without edit rights. */
  readOnly: boolean;
  can(permission: PermissionName, folderId?: string, createdBy?: number | null): boolean;
  /** Opens an item in the panel (null closes it). */
  openItem(itemId: string | null, folderId?: string): void;
  openFolder(folderId: string): void;
}

export const BoardContext = createContext<BoardState | null>(null);

export function useBoard(): BoardState {
  const state = useContext(BoardContext);
  if (!state) throw new Error('useBoard outside a board');
  return state;
}
