import { memo } from 'react';
import { useDraggable } from '@dnd-kit/core';
import { horizontalListSortingStrategy, SortableContext, useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useLingui } from '@lingui/react/macro';
import type { ViewSettings } from '../../../schema/views';
import type { DragData } from '../../ui/drag/data';
import type { Attribute } from '../store/live';
import { HEADER_HEIGHT, SELECT_WIDTH, type VirtualCol } from './use-table-virtual';
import { PRIMARY_ATTRIBUTE_NAME } from '../../../schema/board-defaults';
import { AttributeKindIcon } from '../../ui/kind-icons';

export const resizeDragId = (attributeId: string) => `resize:${attributeId}`;
export type ResizeData = DragData & { attributeId: string; width: number };

export interface TableHeaderProps {
  columns: Attribute[];
  virtualCols: VirtualCol[];
  width: number;
  sort: ViewSettings['sort'];
  allSelected: boolean;
  /** Columns can be reordered and resized (the view is not read-only). */
  arrangeable: boolean;
  onToggleAll(): void;
  onSort(attribute: Attribute): void;
  /** False right after a drag, so the click that ends it does not also sort. */
  clickAllowed(): boolean;
}

/**
 * The header row: select all, one header per visible column with sort on click, reorder by
 * dragging the header (the primary column stays first), resize by dragging its edge.
 */
/** Memoised: with stable callbacks from the table, scrolling down does not render the header. */
export const TableHeader = memo(function TableHeader({ columns, virtualCols, width, sort, allSelected, arrangeable, onToggleAll, onSort, clickAllowed }: TableHeaderProps) {
  const { t } = useLingui();
  const movable = columns.filter((c) => c.kind !== 'primary').map((c) => c.id);
  return (
    <div className="table-header" role="row" aria-rowindex={1} style={{ width, height: HEADER_HEIGHT }}>
      <div className="table-cell table-select is-pinned" role="columnheader" style={{ width: SELECT_WIDTH }}>
        <input type="checkbox" aria-label={t`Select all`} checked={allSelected} onChange={onToggleAll} />
      </div>
      <SortableContext items={movable} strategy={horizontalListSortingStrategy}>
        {virtualCols.map((vc) => {
          const attribute = columns[vc.index]!;
          const sorted = sort.find((s) => s.attribute_id === (attribute.kind === 'primary' ? 'name' : attribute.id));
          return (
            <HeaderCell
              key={attribute.id}
              attribute={attribute}
              start={vc.start}
              size={vc.size}
              direction={sorted?.direction}
              arrangeable={arrangeable}
              onSort={onSort}
              clickAllowed={clickAllowed}
            />
          );
        })}
      </SortableContext>
    </div>
  );
});

interface HeaderCellProps {
  attribute: Attribute;
  start: number;
  size: number;
  direction?: 'asc' | 'desc';
  arrangeable: boolean;
  onSort(attribute: Attribute): void;
  clickAllowed(): boolean;
}

const HeaderCell = memo(function HeaderCell({ attribute, start, size, direction, arrangeable, onSort, clickAllowed }: HeaderCellProps) {
  const data: DragData = { type: 'column', accepts: ['column'], label: attribute.name };
  const movable = arrangeable && attribute.kind !== 'primary';
  const { setNodeRef, listeners, transform, transition, isDragging } = useSortable({ id: attribute.id, data, disabled: !movable });
  return (
    <div
      ref={setNodeRef}
      role="columnheader"
      aria-sort={direction ? (direction === 'asc' ? 'ascending' : 'descending') : undefined}
      className={`table-cell table-head${isDragging ? ' is-dragging' : ''}${start === 0 && attribute.kind === 'primary' ? ' is-pinned' : ''}`}
      style={
        start === 0 && attribute.kind === 'primary'
          ? { position: 'sticky', insetInlineStart: SELECT_WIDTH, width: size, flex: 'none' }
          : { position: 'absolute', insetInlineStart: SELECT_WIDTH + start, width: size, transform: CSS.Translate.toString(transform), transition }
      }
      data-attribute-id={attribute.id}
      {...(movable ? listeners : undefined)}
    >
      <button type="button" className="table-head-button" onClick={() => clickAllowed() && onSort(attribute)} tabIndex={-1} data-drag-through>
        <AttributeKindIcon kind={attribute.kind} />
        <span className="table-head-name">
          <AttributeName attribute={attribute} />
        </span>
        {direction ? (direction === 'asc' ? ' ↑' : ' ↓') : ''}
      </button>
      {arrangeable && <ResizeHandle attribute={attribute} width={size} />}
    </div>
  );
});

/** The edge of a header: dragged sideways (mouse or touch) it changes the column's width. */
function ResizeHandle({ attribute, width }: { attribute: Attribute; width: number }) {
  const { t } = useLingui();
  const data: ResizeData = { type: 'resize', label: attribute.name, attributeId: attribute.id, width };
  const { setNodeRef, listeners } = useDraggable({ id: resizeDragId(attribute.id), data });
  return <span ref={setNodeRef} className="col-resize" role="separator" aria-orientation="vertical" aria-label={t`Resize ${attribute.name}`} {...listeners} />;
}

/** The default name column reads "Name" in the user's language; a name the board chose stays as it is. */
function AttributeName({ attribute }: { attribute: Attribute }) {
  const { t } = useLingui();
  return <>{attribute.kind === 'primary' && DEFAULT_PRIMARY_NAMES.has(attribute.name) ? t`Name` : attribute.name}</>;
}
const DEFAULT_PRIMARY_NAMES = new Set([PRIMARY_ATTRIBUTE_NAME, 'Item']);
