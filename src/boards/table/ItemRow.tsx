import { memo, type CSSProperties } from 'react';
import { useDraggable } from '@dnd-kit/core';
import { useLingui } from '@lingui/react/macro';
import type { Attribute, Item } from '../store/live';
import { ValueDisplay, ValueEditor, READ_ONLY_KINDS, type CommitHow } from '../parts/values';
import type { DragData } from '../../ui/drag/data';
import { ROW_HEIGHT, SELECT_WIDTH, type VirtualCol } from './use-table-virtual';
import { ConflictMarker } from '../parts/ConflictMarker';

type Listeners = ReturnType<typeof useDraggable>['listeners'];

/** Kinds whose editor is a picker or a calendar: one click opens it. */
const ONE_CLICK_KINDS = new Set(['status', 'label', 'date', 'date-range']);

/** The name column sticks beside the selection column (both in the row's flow, so `sticky` holds). */
export const pinned = (attribute: Attribute, vc: VirtualCol) => vc.index === 0 && attribute.kind === 'primary';
export function cellStyle(attribute: Attribute, vc: VirtualCol): CSSProperties {
  if (pinned(attribute, vc)) return { position: 'sticky', insetInlineStart: SELECT_WIDTH, width: vc.size, flex: 'none' };
  return { position: 'absolute', insetInlineStart: SELECT_WIDTH + vc.start, width: vc.size };
}

export interface ItemRowProps {
  item: Item;
  values: Map<string, unknown>;
  rowIndex: number;
  top: number;
  width: number;
  columns: Attribute[];
  virtualCols: VirtualCol[];
  active: number;
  editingCol: number;
  /** The character that started the edit (type-to-edit). */
  initialText?: string;
  selected: boolean;
  ordinal?: number;
  editable: boolean;
  onToggle(id: string): void;
  onActivate(rowIndex: number, col: number, edit: boolean): void;
  onCommit(item: Item, attribute: Attribute, value: unknown, how?: CommitHow): Promise<void>;
  onCancel(): void;
  onOpen(item: Item): void;
}

interface DragProps {
  rowRef?: (element: HTMLElement | null) => void;
  listeners?: Listeners;
  dragging?: boolean;
}

/**
 * One item's row (its values come from the window's one query). Memoised: every prop is stable
 * unless this row's item, values, place, focus or selection changed, so an edit renders one row.
 */
export const ItemRow = memo(function ItemRow({ item, values, rowIndex, top, width, columns, virtualCols, active, editingCol, initialText, selected, ordinal, editable, onToggle, onActivate, onCommit, onCancel, onOpen, rowRef, listeners, dragging }: ItemRowProps & DragProps) {
  const { t } = useLingui();
  return (
    <div
      ref={rowRef}
      role="row"
      aria-rowindex={rowIndex + 2}
      aria-selected={selected}
      className={`table-row${selected ? ' is-selected' : ''}${dragging ? ' is-dragging' : ''}`}
      style={{ top, height: ROW_HEIGHT, width }}
      data-item-id={item.id}
      {...listeners}
    >
      <div id={`cell-${rowIndex}-0`} role="gridcell" className={`table-cell table-select is-pinned${active === 0 ? ' is-active' : ''}`} style={{ width: SELECT_WIDTH }} onClick={() => onActivate(rowIndex, 0, false)}>
        <input type="checkbox" tabIndex={-1} aria-label={t`Select ${item.name}`} checked={selected} onChange={() => onToggle(item.id)} />
      </div>
      {virtualCols.map((vc) => {
        const attribute = columns[vc.index]!;
        const col = vc.index + 1;
        const value = values.get(attribute.id) ?? null;
        const isEditing = editingCol === col;
        return (
          <div
            key={attribute.id}
            id={`cell-${rowIndex}-${col}`}
            role="gridcell"
            aria-readonly={!editable || READ_ONLY_KINDS.has(attribute.kind) || undefined}
            className={`table-cell${active === col ? ' is-active' : ''}${isEditing ? ' is-editing' : ''}${pinned(attribute, vc) ? ' is-pinned' : ''}`}
            style={cellStyle(attribute, vc)}
            // A status or single label opens its picker on one click (issue #17 part 3); a
            // checkbox flips on one click, with no editor (issue #30 part 6).
            onClick={() => {
              if (attribute.kind !== 'checkbox') return onActivate(rowIndex, col, ONE_CLICK_KINDS.has(attribute.kind) && !isEditing);
              onActivate(rowIndex, col, false);
              if (editable) void onCommit(item, attribute, value !== true).catch(() => undefined);
            }}
            onDoubleClick={() => attribute.kind !== 'checkbox' && onActivate(rowIndex, col, true)}
            data-attribute-id={attribute.id}
          >
            {isEditing ? (
              <ValueEditor attribute={attribute} value={value} item={item} initialText={initialText} onCommit={(v, how) => onCommit(item, attribute, v, how)} onCancel={onCancel} />
            ) : attribute.kind === 'checkbox' ? (
              // A real box, empty when unchecked; the cell takes the click (pointer-events: none here).
              <input type="checkbox" className="cell-check" tabIndex={-1} readOnly checked={value === true} disabled={!editable} aria-label={value === true ? t`${attribute.name}: checked` : t`${attribute.name}: unchecked`} />
            ) : (
              <>
                <ValueDisplay attribute={attribute} value={value} item={item} ordinal={ordinal} />
                {attribute.kind === 'primary' && <ConflictMarker itemId={item.id} />}
                {attribute.kind === 'primary' && (
                  <button type="button" tabIndex={-1} className="row-open" aria-label={t`Open ${item.name}`} onClick={(e) => (e.stopPropagation(), onOpen(item))}>
                    ⤢
                  </button>
                )}
              </>
            )}
          </div>
        );
      })}
    </div>
  );
});

/**
 * A row that can be dragged to another group (grouped tables only): the mouse or a finger that
 * rests picks it up; the keyboard moves rows with Alt+↑ / Alt+↓ on the grid instead, since the
 * grid, not the row, holds focus. Not draggable while one of its cells is edited.
 */
export const DraggableItemRow = memo(function DraggableItemRow(props: ItemRowProps) {
  const { t } = useLingui();
  const data: DragData = { type: 'row', label: props.item.name || t`Untitled` };
  const { setNodeRef, listeners, isDragging } = useDraggable({ id: props.item.id, data, disabled: !props.editable || props.editingCol >= 0 });
  return <ItemRow {...props} rowRef={setNodeRef} listeners={listeners} dragging={isDragging} />;
});
