import { describe, expect, it } from 'vitest';
import { buildFolderTree, folderMoveProblem, subtreeIds, TreeMessages, visibleRows, type FolderLike } from '../../src/boards/model/tree';

const f = (id: string, parent: string | null, extra: Partial<FolderLike> = {}): FolderLike => ({ id, parent_id: parent, board_id: 'B', name: id, position: 0, ...extra });
const folders = [
  f('B', null),
  f('x', 'B', { position: 2 }),
  f('a', 'B', { position: 1 }),
  f('a1', 'a'),
  f('a1i', 'a1'),
  f('h', 'B', { position: 3, hidden: true }),
  f('h1', 'h'),
  f('gone', 'B', { deleted_at: '2026-01-01T00:00:00Z' }),
  f('lost', 'missing'),
];

describe('folder tree', () => {
  const tree = buildFolderTree(folders, 'B');

  it('nests subfolders to any depth in position order', () => {
    expect(tree.root!.children.map((c) => c.folder.id)).toEqual(['a', 'x', 'h']);
    expect(tree.byId.get('a1i')!.depth).toBe(3);
    expect(tree.byId.get('a1i')!.path).toEqual(['B', 'a', 'a1', 'a1i']);
  });

  it('hides subfolders of a hidden folder, leaves out trashed and orphaned folders', () => {
    expect(tree.byId.get('h1')!.hidden).toBe(true);
    expect(tree.byId.get('a1')!.hidden).toBe(false);
    expect(tree.byId.has('gone')).toBe(false);
    expect(tree.orphans.map((o) => o.id)).toEqual(['lost']);
  });

  it('lists the rows of expanded folders, hidden ones only for those who may see them', () => {
    const all = new Set(['B', 'a', 'a1', 'h']);
    expect(visibleRows(tree.root, all, false).map((r) => r.node.folder.id)).toEqual(['B', 'a', 'a1', 'a1i', 'x']);
    expect(visibleRows(tree.root, all, true).map((r) => r.node.folder.id)).toEqual(['B', 'a', 'a1', 'a1i', 'x', 'h', 'h1']);
    expect(visibleRows(tree.root, new Set(['B']), false).map((r) => [r.node.folder.id, r.hasChildren])).toEqual([['B', true], ['a', true], ['x', false]]);
  });

  it('refuses to move a folder into itself or its subfolders, or to move a board', () => {
    const byId = new Map(folders.map((x) => [x.id, x]));
    expect(folderMoveProblem(byId, 'a', 'a1i')).toBe(TreeMessages.intoItself);
    expect(folderMoveProblem(byId, 'a', 'a')).toBe(TreeMessages.intoItself);
    expect(folderMoveProblem(byId, 'a1', 'x')).toBeNull();
    expect(folderMoveProblem(byId, 'B', 'x')).toBe(TreeMessages.boardCannotMove);
    expect(subtreeIds(tree.byId.get('a')!)).toEqual(['a', 'a1', 'a1i']);
  });

  it('survives a cycle in bad data', () => {
    const t = buildFolderTree([f('B', null), f('p', 'q'), f('q', 'p')], 'B');
    expect(t.root!.children).toEqual([]);
    expect(t.orphans.map((o) => o.id).sort()).toEqual(['p', 'q']);
  });
});
