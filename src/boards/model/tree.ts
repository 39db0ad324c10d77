import { byPosition } from './positions';

/**
 * The folder tree of a board: subfolders to any depth, hidden inheritance ("a folder is hidden if it
 * or a parent is hidden", workspace.md §4) and the moves that are allowed (never into itself or a
 * subfolder of itself).
 */

export interface FolderLike {
  id: string;
  parent_id: string | null;
  board_id?: string;
  name: string;
  position?: number | null;
  created_at?: string | null;
  hidden?: boolean | null;
  deleted_at?: string | null;
}

export interface TreeNode<F extends FolderLike = FolderLike> {
  folder: F;
  children: TreeNode<F>[];
  depth: number;
  /** Hidden itself or through a parent. */
  hidden: boolean;
  /** Ids from the board down to this folder (inclusive). */
  path: string[];
}

export interface FolderTree<F extends FolderLike = FolderLike> {
  root: TreeNode<F> | null;
  byId: Map<string, TreeNode<F>>;
  /** Folders whose parent is not on this client (trashed or not loaded): not shown in the tree. */
  orphans: F[];
}

export function buildFolderTree<F extends FolderLike>(folders: readonly F[], rootId: string): FolderTree<F> {
  const live = folders.filter((f) => !f.deleted_at);
  const childrenOf = new Map<string | null, F[]>();
  for (const folder of live) {
    const key = folder.id === rootId ? null : folder.parent_id;
    const list = childrenOf.get(key);
    if (list) list.push(folder);
    else childrenOf.set(key, [folder]);
  }
  const byId = new Map<string, TreeNode<F>>();
  const rootFolder = live.find((f) => f.id === rootId);
  if (!rootFolder) return { root: null, byId, orphans: live };

  const visit = (folder: F, depth: number, parentHidden: boolean, path: string[]): TreeNode<F> => {
    const node: TreeNode<F> = { folder, children: [], depth, hidden: parentHidden || Boolean(folder.hidden), path: [...path, folder.id] };
    byId.set(folder.id, node);
    const kids = [...(childrenOf.get(folder.id) ?? [])].sort(byPosition);
    for (const kid of kids) {
      if (byId.has(kid.id)) continue; // a cycle in bad data: show each folder once
      node.children.push(visit(kid, depth + 1, node.hidden, node.path));
    }
    return node;
  };
  const root = visit(rootFolder, 0, false, []);
  const orphans = live.filter((f) => !byId.has(f.id));
  return { root, byId, orphans };
}

export interface TreeRow<F extends FolderLike = FolderLike> {
  node: TreeNode<F>;
  hasChildren: boolean;
  expanded: boolean;
}

/**
 * The rows a sidebar shows: depth-first, children only under expanded folders. Hidden folders are
 * left out unless `showHidden` (people who may see hidden folders see them marked).
 */
export function visibleRows<F extends FolderLike>(root: TreeNode<F> | null, expanded: ReadonlySet<string>, showHidden: boolean): TreeRow<F>[] {
  const rows: TreeRow<F>[] = [];
  const walk = (node: TreeNode<F>) => {
    if (node.hidden && !showHidden) return;
    const kids = showHidden ? node.children : node.children.filter((c) => !c.hidden);
    const open = expanded.has(node.folder.id);
    rows.push({ node, hasChildren: kids.length > 0, expanded: open });
    if (open) for (const kid of kids) walk(kid);
  };
  if (root) walk(root);
  return rows;
}

/** True when `ancestorId` is `id` or one of its parents. */
export function isSelfOrAncestor(folders: ReadonlyMap<string, FolderLike>, ancestorId: string, id: string): boolean {
  const seen = new Set<string>();
  for (let current: string | null = id; current !== null && !seen.has(current); current = folders.get(current)?.parent_id ?? null) {
    if (current === ancestorId) return true;
    seen.add(current);
  }
  return false;
}

export const TreeMessages = {
  intoItself: 'a folder cannot move into its own subfolder',
  boardCannotMove: 'a board cannot be moved into a folder',
  otherBoard: 'a folder stays on its board',
} as const;

/** Why a folder cannot go under `newParentId` (null = allowed). */
export function folderMoveProblem(folders: ReadonlyMap<string, FolderLike>, folderId: string, newParentId: string): string | null {
  const folder = folders.get(folderId);
  const parent = folders.get(newParentId);
  if (!folder || !parent) return null;
  if (folder.parent_id === null) return TreeMessages.boardCannotMove;
  if (folder.board_id !== undefined && parent.board_id !== undefined && folder.board_id !== parent.board_id) return TreeMessages.otherBoard;
  if (isSelfOrAncestor(folders, folderId, newParentId)) return TreeMessages.intoItself;
  return null;
}

/** A folder and all its subfolders (ids), e.g. for "include subfolder items" and cascading hides. */
export function subtreeIds<F extends FolderLike>(node: TreeNode<F>): string[] {
  const out: string[] = [];
  const walk = (n: TreeNode<F>) => {
    out.push(n.folder.id);
    n.children.forEach(walk);
  };
  walk(node);
  return out;
}
