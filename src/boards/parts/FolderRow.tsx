import { useDraggable, useDroppable } from '@dnd-kit/core';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import type { KeyboardEvent } from 'react';
import { pathFor } from '../../../schema/routes';
import { PopupMenu } from '../../ui/PopupMenu';
import type { MenuItem } from '../../ui/MenuList';
import type { DragData } from '../../ui/drag/data';
import type { Folder } from '../store/live';
import type { DropZone } from '../model/folder-drop';
import type { TreeNode } from '../model/tree';

export const folderDropId = (id: string) => `into:${id}`;

export interface FolderRowProps {
  node: TreeNode<Folder>;
  boardId: string;
  active: boolean;
  hasChildren: boolean;
  open: boolean;
  /** Whether this folder can be dragged (not the board; the viewer may edit it). */
  draggable: boolean;
  /** The drop zone shown on this row while another folder is dragged over it. */
  hint: DropZone | null;
  menu: MenuItem[];
  onToggle(): void;
  onKeyDown(event: KeyboardEvent): void;
}

/** One row of the folder tree: a drag source (pointer, touch, or Space on its link) and a drop target for other folders. */
export function FolderRow({ node, boardId, active, hasChildren, open, draggable, hint, menu, onToggle, onKeyDown }: FolderRowProps) {
  const { t } = useLingui();
  const folder = node.folder;
  const isBoard = folder.parent_id === null;
  const data: DragData & { folderId: string } = { type: 'folder', label: folder.name, folderId: folder.id };
  const drag = useDraggable({ id: folder.id, data, disabled: !draggable });
  const target: DragData & { folderId: string } = { accepts: ['folder'], label: folder.name, folderId: folder.id };
  const drop = useDroppable({ id: folderDropId(folder.id), data: target });
  return (
    <li
      ref={(el) => {
        drag.setNodeRef(el);
        drop.setNodeRef(el);
      }}
      role="treeitem"
      aria-level={node.depth + 1}
      aria-expanded={hasChildren ? open : undefined}
      aria-selected={active}
      className={`folder-row${active ? ' is-active' : ''}${node.hidden ? ' is-hidden' : ''}${drag.isDragging ? ' is-dragging' : ''}${hint ? ` drop-${hint}` : ''}`}
      style={{ paddingInlineStart: `${node.depth * 14 + 4}px` }}
      data-folder-id={folder.id}
      {...drag.listeners}
      onKeyDown={(e) => {
        onKeyDown(e);
        if (!e.defaultPrevented) drag.listeners?.onKeyDown?.(e);
      }}
    >
      {hasChildren ? (
        <button type="button" className="folder-toggle" aria-label={open ? t`Collapse ${folder.name}` : t`Expand ${folder.name}`} onClick={onToggle}>
          {open ? '▾' : '▸'}
        </button>
      ) : (
        <span className="folder-toggle" aria-hidden="true" />
      )}
      <Link
        ref={drag.setActivatorNodeRef}
        to={isBoard ? pathFor('board', { rootId: boardId }) : pathFor('folder', { rootId: boardId, folderId: folder.id })}
        className="folder-link"
        draggable={false}
        aria-describedby={draggable ? drag.attributes['aria-describedby'] : undefined}
      >
        {folder.name}
      </Link>
      {node.hidden && (
        <span className="folder-hidden-mark">
          <Trans>hidden</Trans>
        </span>
      )}
      {menu.length > 0 && <PopupMenu items={menu} label={t`Folder actions for ${folder.name}`} />}
    </li>
  );
}
