import { useState, type DragEvent, type FormEvent, type KeyboardEvent } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import { store } from '../../storage/local-store';
import { confirm } from '../../ui/confirm-store';
import { Modal } from '../../ui/Modal';
import { PopupMenu } from '../../ui/PopupMenu';
import { Button } from '../../ui/Button';
import { toast } from '../../ui/toast-store';
import { useBoard } from '../BoardContext';
import type { Folder } from '../store/live';
import { planMove, sortByPosition } from '../model/positions';
import { folderMoveProblem, visibleRows, type TreeNode } from '../model/tree';
import { planFolderDrop, planKeyboardMove, zoneAt, type DropZone, type FolderDrop } from '../model/folder-drop';

const DRAG_TYPE = 'application/x-cairn-folder';
const MOVE_KEYS: Record<string, 'up' | 'down' | 'into' | 'out'> = { ArrowUp: 'up', ArrowDown: 'down', ArrowRight: 'into', ArrowLeft: 'out' };

/**
 * The board's folder tree: subfolders to any depth, expand/collapse (remembered per board),
 * create, rename, hide/show, move (to another parent, up and down) and delete. Folders are dragged
 * to reorder or nest (before / after / inside a row, model/folder-drop.ts); Alt+arrows do the same
 * from the keyboard (up, down, into the folder above, out to the parent's level).
 * Hidden folders are shown (marked) to people who may edit folder settings, and hidden from others.
 */
export function FolderTree({ activeId }: { activeId: string }) {
  const { t } = useLingui();
  const board = useBoard();
  const expandedKey = `boards.expanded.${board.boardId}`;
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set(store.get<string[]>(expandedKey, [board.boardId])));
  const [dialog, setDialog] = useState<null | { kind: 'create'; parent: Folder } | { kind: 'rename'; folder: Folder } | { kind: 'move'; folder: Folder }>(null);
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

  const [dragging, setDragging] = useState<string | null>(null);
  const [hint, setHint] = useState<{ id: string; zone: DropZone } | null>(null);

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
  const dropAt = (event: DragEvent<HTMLElement>, targetId: string): FolderDrop | null => {
    if (!dragging) return null;
    const rect = event.currentTarget.getBoundingClientRect();
    return planFolderDrop(board.tree, dragging, targetId, zoneAt(event.clientY - rect.top, rect.height));
  };
  const onRowKeyDown = (event: KeyboardEvent, node: TreeNode<Folder>, canEdit: boolean) => {
    const key = MOVE_KEYS[event.key];
    if (!event.altKey || !key || !canEdit) return;
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

  return (
    <nav className="folder-tree" data-testid="folder-tree">
      <ul role="tree" aria-label={t`Folders`}>
        {rows.map(({ node, hasChildren, expanded: open }) => {
          const folder = node.folder;
          const isBoard = folder.parent_id === null;
          const canEdit = board.can(isBoard ? 'UPDATE_BOARD' : 'EDIT_FOLDER', folder.id, folder.created_by ?? null);
          const canCreate = board.can('CREATE_FOLDER', folder.id);
          const canSettings = board.can(isBoard ? 'UPDATE_BOARD' : 'EDIT_FOLDER_SETTINGS', folder.id, folder.created_by ?? null);
          const canDelete = !isBoard && board.can('DELETE_FOLDER', folder.id, folder.created_by ?? null);
          const items = [
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
          return (
            <li
              key={folder.id}
              role="treeitem"
              aria-level={node.depth + 1}
              aria-expanded={hasChildren ? open : undefined}
              aria-selected={folder.id === activeId}
              className={`folder-row${folder.id === activeId ? ' is-active' : ''}${node.hidden ? ' is-hidden' : ''}${dragging === folder.id ? ' is-dragging' : ''}${hint?.id === folder.id ? ` drop-${hint.zone}` : ''}`}
              style={{ paddingInlineStart: `${node.depth * 14 + 4}px` }}
              data-folder-id={folder.id}
              draggable={!isBoard && canEdit}
              onDragStart={(e) => {
                e.dataTransfer.setData(DRAG_TYPE, folder.id);
                e.dataTransfer.effectAllowed = 'move';
                setDragging(folder.id);
              }}
              onDragEnd={() => (setDragging(null), setHint(null))}
              onDragOver={(e) => {
                const drop = dropAt(e, folder.id);
                if (!drop) return setHint(null);
                e.preventDefault(); // allows the drop here
                e.dataTransfer.dropEffect = 'move';
                const zone = zoneAt(e.clientY - e.currentTarget.getBoundingClientRect().top, e.currentTarget.getBoundingClientRect().height);
                if (hint?.id !== folder.id || hint.zone !== zone) setHint({ id: folder.id, zone });
              }}
              onDrop={(e) => {
                const drop = dropAt(e, folder.id);
                e.preventDefault();
                setDragging(null);
                setHint(null);
                if (drop) void applyDrop(drop);
              }}
              onKeyDown={(e) => onRowKeyDown(e, node, canEdit)}
            >
              {hasChildren ? (
                <button type="button" className="folder-toggle" aria-label={open ? t`Collapse ${folder.name}` : t`Expand ${folder.name}`} onClick={() => toggle(folder.id)}>
                  {open ? '▾' : '▸'}
                </button>
              ) : (
                <span className="folder-toggle" aria-hidden="true" />
              )}
              <Link to={isBoard ? pathFor('board', { rootId: board.boardId }) : pathFor('folder', { rootId: board.boardId, folderId: folder.id })} className="folder-link">
                {folder.name}
              </Link>
              {node.hidden && (
                <span className="folder-hidden-mark">
                  <Trans>hidden</Trans>
                </span>
              )}
              {items.length > 0 && <PopupMenu items={items} label={t`Folder actions for ${folder.name}`} />}
            </li>
          );
        })}
      </ul>
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
    </nav>
  );
}

export function NameDialog({ title, initial, onSave, onClose, label }: { title: string; initial: string; label?: string; onSave: (name: string) => Promise<unknown> | void; onClose: () => void }) {
  const { t } = useLingui();
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setError(t`Enter a name.`);
      return;
    }
    try {
      await onSave(name.trim());
      onClose();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <Modal open onClose={onClose} title={title} size="sm">
      <form onSubmit={submit} className="board-form">
        <label>
          {label ?? t`Name`}
          <input autoFocus value={name} onChange={(e) => setName(e.target.value)} aria-invalid={error ? true : undefined} />
        </label>
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <div className="board-form-actions">
          <Button type="button" variant="secondary" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit">
            <Trans>Save</Trans>
          </Button>
        </div>
      </form>
    </Modal>
  );
}

function MoveFolderDialog({ folder, onClose }: { folder: Folder; onClose: () => void }) {
  const { t } = useLingui();
  const board = useBoard();
  const byId = new Map(board.folders.map((f) => [f.id, f]));
  const targets = [...board.tree.byId.values()].filter((n) => folderMoveProblem(byId, folder.id, n.folder.id) === null && n.folder.id !== folder.parent_id);
  return (
    <Modal open onClose={onClose} title={t`Move ${folder.name} to…`} size="sm">
      <ul className="move-targets">
        {targets.map((n) => (
          <li key={n.folder.id} style={{ paddingInlineStart: `${n.depth * 14}px` }}>
            <button
              type="button"
              onClick={async () => {
                if (!board.can('CREATE_FOLDER', n.folder.id)) {
                  toast.show(t`This action is unauthorized.`, { kind: 'error' });
                  return;
                }
                await board.actions.moveFolder(folder, n.folder.id, n.children.map((c) => c.folder), n.children.length);
                onClose();
              }}
            >
              {n.folder.name}
            </button>
          </li>
        ))}
      </ul>
    </Modal>
  );
}
