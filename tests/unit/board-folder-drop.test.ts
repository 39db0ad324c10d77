import { describe, expect, it } from 'vitest';
import { buildFolderTree } from '../../src/boards/model/tree';
import { planFolderDrop, planKeyboardMove, zoneAt } from '../../src/boards/model/folder-drop';

// Board B with A(1), C(2), D(3); A has A1.
const folders = [
  { id: 'B', parent_id: null, board_id: 'B', name: 'Board', position: 0 },
  { id: 'A', parent_id: 'B', board_id: 'B', name: 'A', position: 1 },
  { id: 'C', parent_id: 'B', board_id: 'B', name: 'C', position: 2 },
  { id: 'D', parent_id: 'B', board_id: 'B', name: 'D', position: 3 },
  { id: 'A1', parent_id: 'A', board_id: 'B', name: 'A1', position: 1 },
];
const tree = buildFolderTree(folders, 'B');

describe('folder tree drops', () => {
  it('reads the zone from the pointer height', () => {
    expect([zoneAt(1, 20), zoneAt(10, 20), zoneAt(19, 20)]).toEqual(['before', 'inside', 'after']);
  });

  it('reorders among siblings', () => {
    expect(planFolderDrop(tree, 'D', 'A', 'before')).toEqual({ folderId: 'D', parentId: 'B', sameParent: true, index: 0 });
    expect(planFolderDrop(tree, 'A', 'D', 'after')).toEqual({ folderId: 'A', parentId: 'B', sameParent: true, index: 3 });
    // Where it already is: nothing to do.
    expect(planFolderDrop(tree, 'C', 'A', 'after')).toBeNull();
  });

  it('nests into a folder and moves out to another level', () => {
    expect(planFolderDrop(tree, 'D', 'A', 'inside')).toEqual({ folderId: 'D', parentId: 'A', sameParent: false, index: 1 });
    expect(planFolderDrop(tree, 'A1', 'C', 'before')).toEqual({ folderId: 'A1', parentId: 'B', sameParent: false, index: 1 });
    expect(planFolderDrop(tree, 'C', 'B', 'inside')).toEqual({ folderId: 'C', parentId: 'B', sameParent: true, index: 3 });
  });

  it('refuses a drop into its own subtree, beside the board, or of the board', () => {
    expect(planFolderDrop(tree, 'A', 'A1', 'inside')).toBeNull();
    expect(planFolderDrop(tree, 'A', 'A', 'inside')).toBeNull();
    expect(planFolderDrop(tree, 'C', 'B', 'before')).toBeNull();
    expect(planFolderDrop(tree, 'B', 'C', 'inside')).toBeNull();
  });

  it('plans the keyboard moves: up, down, into the folder above, out to the parent level', () => {
    expect(planKeyboardMove(tree, 'C', 'up')).toEqual({ folderId: 'C', parentId: 'B', sameParent: true, index: 0 });
    expect(planKeyboardMove(tree, 'C', 'down')).toEqual({ folderId: 'C', parentId: 'B', sameParent: true, index: 3 });
    expect(planKeyboardMove(tree, 'C', 'into')).toEqual({ folderId: 'C', parentId: 'A', sameParent: false, index: 1 });
    expect(planKeyboardMove(tree, 'A1', 'out')).toEqual({ folderId: 'A1', parentId: 'B', sameParent: false, index: 1 });
    expect(planKeyboardMove(tree, 'A', 'up')).toBeNull();
    expect(planKeyboardMove(tree, 'A', 'out')).toBeNull();
  });
});
