import { useState, type KeyboardEvent } from 'react';
import { pointerWithin, type CollisionDetection, type DragEndEvent, type DragMoveEvent, type KeyboardCoordinateGetter } from '@dnd-kit/core';
import { useLingui } from '@lingui/react/macro';
import { store } from '../../storage/local-store';
import { confirm } from '../../ui/confirm-store';
import { toast } from '../../ui/toast-store';
import { DragArea } from '../../ui/drag/DragArea';
import { dragData, middleOf, pointerNow } from '../../ui/drag/data';
import { inlineStep, isRtl } from '../../ui/drag/direction';
import { useBoard } from '../BoardContext';
import type { Folder } from '../store/live';
import { planMove, sortByPosition } from '../model/positions';
import { visibleRows, type TreeNode } from '../model/tree';
import { planFolderDrop, planKeyboardMove, zoneAt, type DropZone, type FolderDrop } from '../model/folder-drop';
import { FolderRow } from './FolderRow';
import { MoveFolderDialog } from './MoveFolderDialog';
import { DuplicateFolderDialog } from '../../board-jobs/DuplicateFolderDialog';
import { NameDialog } from './NameDialog';

/**
 * The board's folder tree: subfolders to any depth, expand/collapse (remembered per board),
 * create, rename, hide/show, move (to another parent, up and down) and delete. Folders are dragged
 * (mouse, touch, or Space on a focused folder then arrows) to reorder or nest: before / after /
 * inside a row (model/folder-drop.ts). Alt+arrows do the same in one stroke: up, down, into the
 * folder above it, out to the parent's level (Alt+→ / Alt+← swap in a right-to-left page).
 * Hidden folders are shown (marked) to people who may edit folder settings, and hidden from others.
 */

type Target = { folderId: string };
const targetOf = (holder: Parameters<typeof dragData>[0]) => (dragData(holder) as (Target & ReturnType<typeof dragData>) | undefined)?.folderId;

/** The row under the pointer (a keyboard drag: the row under the dragged row's middle). */
const collision: CollisionDetection = (args) => {
  if (args.pointerCoordinates) return pointerWithin(args);
  const middle = middleOf(args.collisionRect);
  return pointerWithin({ ...args, pointerCoordinates: middle });
};

/** Keyboard drags step a third of a row, so each row passes through before, inside and after. */
const keyboardSteps: KeyboardCoordinateGetter = (event, { currentCoordinates, context }) => {
  const step = (context.collisionRect?.height ?? 24) / 3;
  if (event.code === 'ArrowDown') return { ...currentCoordinates, y: currentCoordinates.y + step };
  if (event.code === 'ArrowUp') return { ...currentCoordinates, y: currentCoordinates.y - step };
  return undefined;
};

/** The zone of the row under the drag: by the pointer, or by the dragged row's middle for the keyboard. */
function zoneOf(event: DragMoveEvent | DragEndEvent): DropZone | null {
  const { over, active, activatorEvent, delta } = event;
  if (!over) return null;
  const point = pointerNow(activatorEvent, delta) ?? (active.rect.current.translated ? middleOf(active.rect.current.translated) : null);
  return point ? zoneAt(point.y - over.rect.top, over.rect.height) : null;
}

export function FolderTree({ activeId }: { activeId: string }) {
  const { t } = useLingui();
  const board = useBoard();
  const expandedKey = `boards.expanded.${board.boardId}`;
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set(store.get<string[]>(expandedKey, [board.boardId])));
  const [dialog, setDialog] = useState<null | { kind: 'create'; parent: Folder } | { kind: 'rename'; folder: Folder } | { kind: 'move'; folder: Folder } | { kind: 'duplicate'; folder: Folder }>(null);
  const [hint, setHint] = useState<{ id: string; zone: DropZone } | null>(null);
  const showHidden = board.can('EDIT_FOLDER_SETTINGS', board.boardId);
  const rows = visibleRows(board.tree.root, expanded, showHidden);

  const toggle = (id: string) => {
    const next = new Set(expanded);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setExpanded(next);
    store.set(expandedKey, [...next]);
  };

  const siblingsOf = (node: TreeNode<Folder>) => {
    const parent = node.folder.parent_id ? board.tree.byId.get(node.folder.parent_id) : null;
    return parent ? parent.children.map((c) => c.folder) : [];
  };

  /** Applies a planned drop: one position write within a parent, or a move under the new parent. */
  const applyDrop = async (drop: FolderDrop) => {
    const moving = board.tree.byId.get(drop.folderId);
    const parent = board.tree.byId.get(drop.parentId);
    if (!moving || !parent) return;
    if (!drop.sameParent && !board.can('CREATE_FOLDER', drop.parentId)) {
      toast.show(t`This action is unauthorized.`, { kind: 'error' });
      return;
    }
    const siblings = parent.children.map((c) => c.folder);
    if (drop.sameParent) await board.actions.reorder('folder', planMove(sortByPosition(siblings), [drop.folderId], drop.index), 'move folder');
    else {
      await board.actions.moveFolder(moving.folder, drop.parentId, siblings, drop.index);
      if (!expanded.has(drop.parentId)) toggle(drop.parentId);
    }
  };

  /** The drop this drag would make now, or null where it is not allowed. */
  const planned = (event: DragMoveEvent | DragEndEvent): { drop: FolderDrop; targetId: string; zone: DropZone } | null => {
    const targetId = targetOf(event.over);
    const zone = zoneOf(event);
    if (!targetId || !zone) return null;
    const drop = planFolderDrop(board.tree, String(event.active.id), targetId, zone);
    return drop ? { drop, targetId, zone } : null;
  };
  const onDragMove = (event: DragMoveEvent) => {
    const plan = planned(event);
    if (plan?.targetId !== hint?.id || plan?.zone !== hint?.zone) setHint(plan ? { id: plan.targetId, zone: plan.zone } : null);
  };
  const onDragEnd = (event: DragEndEvent) => {
    const plan = planned(event);
    setHint(null);
    if (plan) void applyDrop(plan.drop);
  };

  const onRowKeyDown = (event: KeyboardEvent, node: TreeNode<Folder>, canEdit: boolean) => {
    if (!event.altKey || !canEdit) return;
    const step = inlineStep(event.key, isRtl(event.currentTarget as Element));
    const key = event.key === 'ArrowUp' ? 'up' : event.key === 'ArrowDown' ? 'down' : step > 0 ? 'into' : step < 0 ? 'out' : null;
    if (!key) return;
    event.preventDefault(); // Alt+Left would otherwise go back in history
    const drop = planKeyboardMove(board.tree, node.folder.id, key);
    if (drop) void applyDrop(drop).then(() => requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-folder-id="${node.folder.id}"] .folder-link`)?.focus()));
  };

  const moveWithin = async (node: TreeNode<Folder>, delta: number) => {
    const siblings = sortByPosition(siblingsOf(node));
    const index = siblings.findIndex((s) => s.id === node.folder.id);
    const target = delta < 0 ? index - 1 : index + 2;
    if (index < 0 || target < 0 || target > siblings.length) return;
    await board.actions.reorder('folder', planMove(siblings, [node.folder.id], target), 'move folder');
  };

  const menuFor = (node: TreeNode<Folder>, isBoard: boolean, canEdit: boolean) => {
    const folder = node.folder;
    const canCreate = board.can('CREATE_FOLDER', folder.id);
    const canSettings = board.can(isBoard ? 'UPDATE_BOARD' : 'EDIT_FOLDER_SETTINGS', folder.id, folder.created_by ?? null);
    const canDelete = !isBoard && board.can('DELETE_FOLDER', folder.id, folder.created_by ?? null);
    return [
      ...(canCreate ? [{ label: t`New subfolder`, onSelect: () => setDialog({ kind: 'create', parent: folder }) }] : []),
      ...(canEdit ? [{ label: t`Rename`, onSelect: () => setDialog({ kind: 'rename', folder }) }] : []),
      ...(!isBoard && canSettings
        ? [{ label: folder.hidden ? t`Show folder` : t`Hide folder`, onSelect: () => void board.actions.updateFolder(folder, { hidden: !folder.hidden }, folder.hidden ? 'show folder' : 'hide folder') }]
        : []),
      ...(!isBoard && canEdit
        ? [
            { label: t`Move up`, onSelect: () => void moveWithin(node, -1) },
            { label: t`Move down`, onSelect: () => void moveWithin(node, 1) },
            { label: t`Move to…`, onSelect: () => setDialog({ kind: 'move', folder }) },
          ]
        : []),
      ...(!isBoard && canCreate ? [{ label: t`Duplicate…`, onSelect: () => setDialog({ kind: 'duplicate', folder }) }] : []),
      ...(canDelete
        ? [
            {
              label: t`Delete`,
              danger: true,
              separatorBefore: true,
              onSelect: async () => {
                if (await confirm({ message: t`Move this folder and its items to trash?` })) await board.actions.deleteFolder(folder.id);
              },
            },
          ]
        : []),
    ];
  };

  return (
    <nav className="folder-tree" data-testid="folder-tree">
      <DragArea collision={collision} keyboard={keyboardSteps} onDragMove={onDragMove} onDragEnd={onDragEnd} onDragCancel={() => setHint(null)}>
        <ul role="tree" aria-label={t`Folders`}>
          {rows.map(({ node, hasChildren, expanded: open }) => {
            const folder = node.folder;
            const isBoard = folder.parent_id === null;
            const canEdit = board.can(isBoard ? 'UPDATE_BOARD' : 'EDIT_FOLDER', folder.id, folder.created_by ?? null);
            return (
              <FolderRow
                key={folder.id}
                node={node}
                boardId={board.boardId}
                active={folder.id === activeId}
                hasChildren={hasChildren}
                open={open}
                draggable={!isBoard && canEdit}
                hint={hint?.id === folder.id ? hint.zone : null}
                menu={menuFor(node, isBoard, canEdit)}
                onToggle={() => toggle(folder.id)}
                onKeyDown={(e) => onRowKeyDown(e, node, canEdit)}
              />
            );
          })}
        </ul>
      </DragArea>
      {dialog?.kind === 'create' && (
        <NameDialog
          title={t`New folder`}
          initial=""
          onClose={() => setDialog(null)}
          onSave={async (name) => {
            const parent = board.tree.byId.get(dialog.parent.id);
            const id = await board.actions.createFolder(dialog.parent.id, name, parent ? parent.children.map((c) => c.folder) : []);
            if (!expanded.has(dialog.parent.id)) toggle(dialog.parent.id);
            board.openFolder(id);
          }}
        />
      )}
      {dialog?.kind === 'rename' && (
        <NameDialog title={t`Rename`} initial={dialog.folder.name} onClose={() => setDialog(null)} onSave={(name) => board.actions.updateFolder(dialog.folder, { name }, 'rename folder')} />
      )}
      {dialog?.kind === 'move' && <MoveFolderDialog folder={dialog.folder} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'duplicate' && <DuplicateFolderDialog teamId={board.teamId} boardId={board.boardId} folder={dialog.folder} onClose={() => setDialog(null)} />}
    </nav>
  );
}
