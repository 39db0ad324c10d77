import { useCallback, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useBoard } from '../BoardContext';
import { toast } from '../../ui/toast-store';
import { DragArea } from '../../ui/drag/DragArea';
import { pageIsRtl } from '../../ui/drag/direction';
import type { Attribute, Item } from '../store/live';
import { useWindowValues } from '../store/live';
import { moveColumn, orderedColumns } from '../model/columns';
import type { Cell } from '../model/grid-keys';
import { groupWriteProblem, valueForGroup } from '../model/groups';
import { useChangeView } from '../parts/use-change-view';
import type { ViewProps } from '../parts/view-props';
import { dropProblem, positionInGroup, UNAUTHORIZED, windowBlockIds, type RowDropTarget } from './table-rows';
import { useGroupedRowSource } from './use-grouped-rows';
import { useTableVirtual, HEADER_HEIGHT } from './use-table-virtual';
import { useSelection } from './use-selection';
import { useCellEditing } from './use-cell-editing';
import { useColumnWidths } from './use-column-widths';
import { useOrdinals } from './use-ordinals';
import { onGridKey } from './use-grid-keys';
import { tableCollision, useTableDrag } from './use-table-drag';
import { TableHeader } from './TableHeader';
import { DraggableItemRow, ItemRow } from './ItemRow';
import { GroupRow } from './GroupRow';
import { NewItemRow } from './NewItemRow';
import { trashWithUndo } from '../keys/trash-with-undo';
import type { CommitHow } from '../parts/values';
import './table-drag.css';
import './table-pinned.css';

/**
 * The Table view, put together from parts with one job each: grouping (use-grouped-rows),
 * virtualisation (use-table-virtual), selection (use-selection), cell editing (use-cell-editing),
 * the keyboard (use-grid-keys), the header with sort, reorder and resize (TableHeader,
 * use-column-widths), rows (ItemRow, GroupRow) and the drags (use-table-drag). This file holds the
 * focused cell and wires the parts to the board's actions.
 */
export function TableView({ view, items, get, selected, setSelected, addItem, canCreate, folder }: ViewProps) {
  const { t } = useLingui();
  const board = useBoard();
  const change = useChangeView(folder, view);
  // The pane builds a new settings object on every render; keyed by content, the columns and rows
  // below (and so every memoised row) stay the same objects until the view really changes.
  const settingsKey = JSON.stringify(view.settings);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const settings = useMemo(() => view.settings, [settingsKey]);
  const columns = useMemo(() => orderedColumns(board.attributes, settings), [board.attributes, settings]);
  const widths = useColumnWidths(settings, (column_widths) => change({ column_widths }));
  const groupAttribute = settings.group_by ? board.attributes.find((a) => a.id === settings.group_by) : undefined;
  const { rows, groups, isCollapsed, toggleGroup } = useGroupedRowSource(items, groupAttribute, get, { hideEmptyGroups: settings.hide_empty_groups, groupOrder: settings.group_order });

  const scrollRef = useRef<HTMLDivElement>(null);
  const rtl = pageIsRtl();
  // The name column stays in view (sticky at the start edge, the right one in RTL) while the rest scroll.
  const pinFirst = columns[0]?.kind === 'primary';
  const virtual = useTableVirtual({ scrollRef, rowCount: rows.length, columnWidths: columns.map(widths.widthOf), rtl, pinFirst });
  const ordinals = useOrdinals(columns);
  const selection = useSelection(items, selected, setSelected);
  const focusGrid = () => scrollRef.current?.focus({ preventScroll: true });
  const [active, setActive] = useState<Cell>({ row: 0, col: 1 });
  const move = (cell: Cell) => {
    setActive(cell);
    virtual.scrollTo(cell);
  };
  // Enter commits and moves down a row, as in a spreadsheet; Escape and blur stay on the cell.
  const editing = useCellEditing((cell, how) => {
    focusGrid();
    if (cell && how === 'enter') move({ row: Math.min(cell.row + 1, Math.max(0, rows.length - 1)), col: cell.col });
  });

  const sortBy = (attribute: Attribute) => {
    const id = attribute.kind === 'primary' ? 'name' : attribute.id;
    const current = settings.sort[0];
    const direction = current?.attribute_id === id && current.direction === 'asc' ? 'desc' : 'asc';
    void change({ sort: current?.attribute_id === id && current.direction === 'desc' ? [] : [{ attribute_id: id, direction }] });
  };
  const reorderColumn = (id: string, index: number) => {
    const order = columns.filter((c) => c.kind !== 'primary').map((c) => c.id);
    void change({ column_order: moveColumn(order, id, index) });
  };

  /** Puts a dragged (or Alt+arrowed) row into group `key` at `index`, or refuses with the rule's message. */
  const dropRow = async (item: Item, key: string, index: number) => {
    if (!groupAttribute) return;
    const fromKey = groups.find((g) => g.items.some((i) => i.id === item.id))?.key;
    const problem = dropProblem(groupAttribute, key, fromKey, editing.canEditItem(item));
    if (problem) return void toast.show(problem === UNAUTHORIZED ? t`This action is unauthorized.` : problem, { kind: 'error' });
    const moving = key !== fromKey;
    const position = settings.sort.length ? null : positionInGroup(groups, key, item.id, index);
    if (!moving && position === null) return;
    try {
      await board.actions.moveCard(item, moving ? { attribute: groupAttribute, value: valueForGroup(groupAttribute, key) } : null, position);
    } catch (error) {
      toast.show((error as Error).message, { kind: 'error' });
    }
  };

  const canDragRows = !!groupAttribute && !board.readOnly && groupWriteProblem(groupAttribute) === null;
  const drag = useTableDrag({
    scrollRef,
    rows,
    groups,
    rtl,
    dropRow: (itemId: string, target: RowDropTarget) => {
      const item = items.find((i) => i.id === itemId);
      if (item) void dropRow(item, target.key, target.index);
    },
    moveColumn: (id, overId) => {
      const order = columns.filter((c) => c.kind !== 'primary').map((c) => c.id);
      reorderColumn(id, order.indexOf(overId));
    },
    resize: widths,
  });

  const onKeyDown = (event: KeyboardEvent) =>
    onGridKey(event, {
      rows,
      columns,
      active,
      editing: editing.editing !== null,
      rtl,
      pageHeight: scrollRef.current?.clientHeight ?? 400,
      move,
      toggleGroup,
      toggleSelect: selection.toggle,
      clearSelection: selection.clear,
      startEditing: editing.startEditing,
      toggleCheck: (item, attribute) => void editing.commit(item, attribute, valuesOf(item.id).get(attribute.id) !== true).catch(() => undefined),
      canEditCell: editing.canEditCell,
      clear: editing.clear,
      openItem: (item) => board.openItem(item.id, item.folder_id),
      moveRowToGroup: canDragRows
        ? async (item, step) => {
            const at = groups.findIndex((g) => g.items.some((i) => i.id === item.id));
            const next = groups[at + step];
            if (at >= 0 && next) await dropRow(item, next.key, next.items.length);
          }
        : undefined,
      selectedCount: selected.size,
      trash: board.readOnly
        ? undefined
        : async (item) => {
            const chosen = selected.size > 0 ? items.filter((i) => selected.has(i.id)) : [item];
            const deletable = chosen.filter((i) => board.can('DELETE_ITEM', i.folder_id, i.created_by ?? null));
            if (deletable.length < chosen.length) toast.show(t`This action is unauthorized.`, { kind: 'error' });
            await trashWithUndo(board.actions, deletable.map((i) => i.id));
            selection.clear();
          },
      moveColumn: board.readOnly
        ? undefined
        : (attribute, step) => {
            const order = columns.filter((c) => c.kind !== 'primary').map((c) => c.id);
            const at = order.indexOf(attribute.id);
            if (at + step < 0 || at + step >= order.length) return;
            reorderColumn(attribute.id, at + step);
            move({ row: active.row, col: active.col + step });
          },
    });

  const valuesOf = useWindowValues(windowBlockIds(rows, virtual.firstRow, virtual.lastRow));

  // Rows get stable callbacks that read the latest state, so a memoised row renders again only
  // when its own item, values, place or focus change (not on every render of the table).
  const latest = useRef({ rows, columns, selection, editing, openItem: board.openItem, sortBy });
  latest.current = { rows, columns, selection, editing, openItem: board.openItem, sortBy };
  // The header's callbacks too: a scroll frame renders the table, not its (memoised) header.
  const onSort = useCallback((attribute: Attribute) => latest.current.sortBy(attribute), []);
  const onToggleAll = useCallback(() => latest.current.selection.toggleAll(), []);
  const onToggle = useCallback((id: string) => latest.current.selection.toggle(id), []);
  const onCommit = useCallback((item: Item, attribute: Attribute, value: unknown, how?: CommitHow) => latest.current.editing.commit(item, attribute, value, how), []);
  const onOpen = useCallback((item: Item) => latest.current.openItem(item.id, item.folder_id), []);
  const onCancel = useCallback(() => latest.current.editing.cancel(), []);
  const onActivate = useCallback((rowIndex: number, col: number, edit: boolean) => {
    const { rows: currentRows, columns: currentColumns, editing: cells } = latest.current;
    const row = currentRows.at(rowIndex);
    setActive({ row: rowIndex, col });
    if (edit && row?.kind === 'item' && cells.canEditCell(row.item, currentColumns[col - 1])) cells.startEditing({ row: rowIndex, col });
  }, []);

  const Row = canDragRows ? DraggableItemRow : ItemRow;
  const dropKey = drag.row?.target?.key;
  return (
    <div className={`table-view${drag.row ? ' is-row-dragging' : ''}`}>
      <DragArea collision={tableCollision} onDragStart={drag.onDragStart} onDragMove={drag.onDragMove} onDragEnd={drag.onDragEnd} onDragCancel={drag.onDragCancel}>
        <div
          ref={scrollRef}
          className="table-scroll"
          role="grid"
          aria-label={t`Items`}
          aria-rowcount={rows.length + 1}
          aria-colcount={columns.length + 1}
          aria-activedescendant={rows.length ? `cell-${active.row}-${active.col}` : undefined}
          tabIndex={0}
          onKeyDown={(e) => void onKeyDown(e)}
          data-testid="table-view"
        >
          <div className="table-canvas" style={{ height: virtual.height, width: virtual.width }}>
            <TableHeader
              columns={columns}
              virtualCols={virtual.virtualCols}
              width={virtual.width}
              sort={settings.sort}
              allSelected={selection.allSelected}
              arrangeable={!board.readOnly}
              onToggleAll={onToggleAll}
              onSort={onSort}
              clickAllowed={drag.clickAllowed}
            />
            {virtual.virtualRows.map((vr) => {
              const row = rows.at(vr.index)!;
              const top = HEADER_HEIGHT + vr.start;
              if (row.kind === 'group') {
                const key = row.group.key;
                return <GroupRow key={`g-${key}`} group={row.group} rowIndex={vr.index} top={top} width={virtual.width} collapsed={isCollapsed(key)} active={active.row === vr.index} dropTarget={dropKey === key} onToggle={toggleGroup} />;
              }
              return (
                <Row
                  key={row.item.id}
                  item={row.item}
                  values={valuesOf(row.item.id)}
                  rowIndex={vr.index}
                  top={top}
                  width={virtual.width}
                  columns={columns}
                  virtualCols={virtual.virtualCols}
                  active={active.row === vr.index ? active.col : -1}
                  editingCol={editing.editing && editing.editing.row === vr.index ? editing.editing.col : -1}
                  initialText={editing.editing && editing.editing.row === vr.index ? editing.editing.initialText : undefined}
                  selected={selected.has(row.item.id)}
                  ordinal={ordinals?.get(row.item.id)}
                  editable={editing.canEditItem(row.item)}
                  onToggle={onToggle}
                  onActivate={onActivate}
                  onCommit={onCommit}
                  onCancel={onCancel}
                  onOpen={onOpen}
                />
              );
            })}
            {drag.row?.target && <div className="table-drop-marker" style={{ top: HEADER_HEIGHT + drag.row.target.y - 2, width: virtual.width }} data-testid="table-drop-marker" />}
          </div>
          {rows.length === 0 && (
            <p className="table-empty" data-testid="table-empty">
              <Trans>No items here yet.</Trans>
            </p>
          )}
        </div>
      </DragArea>
      {drag.row && drag.row.x > 0 && (
        <div className="table-drag-ghost" style={{ left: drag.row.x + 8, top: drag.row.y + 8 }} aria-hidden="true">
          {drag.row.name}
        </div>
      )}
      {canCreate && (
        <NewItemRow
          onAdd={async (name) => {
            const id = await addItem({}, undefined, name);
            // The new row comes into view; focus stays in the input for the next name.
            if (id) virtual.scrollTo({ row: rows.length, col: 1 });
          }}
        />
      )}
    </div>
  );
}
