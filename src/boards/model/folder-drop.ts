import { folderMoveProblem, type FolderLike, type FolderTree } from './tree';

/**
 * Where a folder dragged onto a row of the folder tree (or moved with the keyboard) goes: before
 * or after that row's folder (same parent), or inside it (last child). Pure, so the tree's
 * pointer and keyboard paths share it and tests need no DOM.
 */

export type DropZone = 'before' | 'after' | 'inside';

export interface FolderDrop {
  folderId: string;
  parentId: string;
  /** Same parent as now: a reorder (one position write); otherwise a move under a new parent. */
  sameParent: boolean;
  /** Insertion index among the new parent's children as the user sees them, the moved folder included when it is one of them (planMove's index). */
  index: number;
}

/** The zone of a pointer at `offsetY` in a row of `height`: top quarter before, bottom quarter after, the middle inside. */
export function zoneAt(offsetY: number, height: number): DropZone {
  if (offsetY < height * 0.25) return 'before';
  if (offsetY > height * 0.75) return 'after';
  return 'inside';
}

/** The drop, or null when it is not allowed (the board itself moves nowhere; nothing goes into its own subtree or beside the board). */
export function planFolderDrop<F extends FolderLike>(tree: FolderTree<F>, folderId: string, targetId: string, zone: DropZone): FolderDrop | null {
  const moving = tree.byId.get(folderId);
  const target = tree.byId.get(targetId);
  if (!moving || !target || folderId === targetId || moving.folder.parent_id === null) return null;
  const parentId = zone === 'inside' ? target.folder.id : target.folder.parent_id;
  if (parentId === null) return null; // beside the board: boards are not folders
  const folders = new Map([...tree.byId].map(([id, node]) => [id, node.folder as FolderLike]));
  if (folderMoveProblem(folders, folderId, parentId) !== null) return null;
  const siblings = tree.byId.get(parentId)!.children.map((c) => c.folder.id);
  const sameParent = moving.folder.parent_id === parentId;
  let index: number;
  if (zone === 'inside') index = siblings.length;
  else {
    const at = siblings.indexOf(targetId);
    index = zone === 'before' ? at : at + 1;
  }
  // A move under a new parent counts among that parent's children without the moved folder.
  if (!sameParent) index = Math.min(index, siblings.length);
  // Dropping a folder where it already is changes nothing.
  if (sameParent) {
    const current = siblings.indexOf(folderId);
    if (index === current || index === current + 1) return null;
  }
  return { folderId, parentId, sameParent, index };
}

/**
 * The keyboard moves of a focused folder (Alt+arrows): up and down among its siblings, into the
 * folder above it (as its last child) and out to its parent's level (just after the parent).
 */
export function planKeyboardMove<F extends FolderLike>(tree: FolderTree<F>, folderId: string, key: 'up' | 'down' | 'into' | 'out'): FolderDrop | null {
  const node = tree.byId.get(folderId);
  if (!node || node.folder.parent_id === null) return null;
  const parent = tree.byId.get(node.folder.parent_id);
  if (!parent) return null;
  const siblings = parent.children;
  const at = siblings.findIndex((c) => c.folder.id === folderId);
  if (key === 'up') return at > 0 ? planFolderDrop(tree, folderId, siblings[at - 1]!.folder.id, 'before') : null;
  if (key === 'down') return at < siblings.length - 1 ? planFolderDrop(tree, folderId, siblings[at + 1]!.folder.id, 'after') : null;
  if (key === 'into') return at > 0 ? planFolderDrop(tree, folderId, siblings[at - 1]!.folder.id, 'inside') : null;
  return parent.folder.parent_id === null ? null : planFolderDrop(tree, folderId, parent.folder.id, 'after');
}
