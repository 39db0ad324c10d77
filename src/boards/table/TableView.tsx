import { memo, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Trans, useLingui } from '@lingui/react/macro';
import { useBoard } from '../BoardContext';
import { toast } from '../../ui/toast-store';
import { checkValue } from '../../../schema/attributes';
import type { Attribute, Item } from '../store/live';
import { useWindowValues } from '../store/live';
import { ValueError } from '../store/actions';
import { clampWidth, columnWidth, moveColumn, orderedColumns } from '../model/columns';
import { nextCell, type Cell } from '../model/grid-keys';
import { groupItems, type Group } from '../model/query';
import { groupWriteProblem, valueForGroup } from '../model/groups';
import { dropProblem, positionInGroup, rowDropTarget, UNAUTHORIZED, windowBlockIds } from './table-rows';
import { useRowDrag } from './use-row-drag';
import './table-drag.css';
import { ValueDisplay, ValueEditor, READ_ONLY_KINDS } from '../parts/values';
import { useChangeView } from '../parts/use-change-view';
import type { ViewProps } from '../parts/view-props';

/**
 * The Table view: rows and columns virtualised (only what is on screen is rendered, so 10,000
 * items × 10 attributes scroll like 20), sort by header click, column resize (drag the edge),
 * reorder (drag a header), inline editing with an editor per kind, and full keyboard navigation
 * (arrows, Home/End, PageUp/PageDown, Tab; Enter or F2 edits, Escape cancels, Space selects,
 * Delete clears). Grouping inserts a header row per group.
 */

const ROW_HEIGHT = 36;
const HEADER_HEIGHT = 38;
const SELECT_WIDTH = 44;

type Row = { kind: 'group'; group: Group<Item>; collapsed: boolean } | { kind: 'item'; item: Item };

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
  const [widths, setWidths] = useState<Record<string, number>>({});
  const widthOf = useCallback((a: Attribute) => widths[a.id] ?? columnWidth(settings, a.id), [widths, settings]);
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const groupAttribute = settings.group_by ? board.attributes.find((a) => a.id === settings.group_by) : undefined;

  const { rows, groups } = useMemo(() => {
    if (!groupAttribute) return { rows: items.map((item) => ({ kind: 'item' as const, item })) as Row[], groups: [] as Group<Item>[] };
    const out: Row[] = [];
    const list = groupItems(items, groupAttribute, get, { hideEmptyGroups: settings.hide_empty_groups, groupOrder: settings.group_order });
    for (const group of list) {
      const closed = collapsed.has(group.key);
      out.push({ kind: 'group', group, collapsed: closed });
      if (!closed) for (const item of group.items) out.push({ kind: 'item', item });
    }
    return { rows: out, groups: list };
  }, [items, groupAttribute, get, settings.hide_empty_groups, settings.group_order, collapsed]);

  const ordinals = useOrdinals(columns);
  const scrollRef = useRef<HTMLDivElement>(null);
  const rowVirtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 8 });
  const colVirtualizer = useVirtualizer({
    horizontal: true,
    count: columns.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => widthOf(columns[i]!),
    overscan: 2,
  });
  useEffect(() => colVirtualizer.measure(), [widths, columns, colVirtualizer, settings.column_widths]);

  const [active, setActive] = useState<Cell>({ row: 0, col: 1 });
  const [editing, setEditing] = useState<Cell | null>(null);
  const totalCols = columns.length + 1; // the selection column is column 0

  const focusGrid = () => scrollRef.current?.focus({ preventScroll: true });
  const move = (cell: Cell) => {
    setActive(cell);
    rowVirtualizer.scrollToIndex(cell.row, { align: 'auto' });
    if (cell.col > 0) colVirtualizer.scrollToIndex(cell.col - 1, { align: 'auto' });
  };

  const itemAt = (row: number) => {
    const r = rows[row];
    return r?.kind === 'item' ? r.item : null;
  };
  // The permission chain is merged on every call; rows ask on every render (each scrolled frame),
  // so answers are kept per folder and creator until the board state changes.
  const editRights = useMemo(() => new Map<string, boolean>(), [board]);
  const canEditItem = (item: Item) => {
    const key = `${item.folder_id}\u0000${item.created_by ?? ''}`;
    let allowed = editRights.get(key);
    if (allowed === undefined) editRights.set(key, (allowed = board.can('EDIT_ITEM', item.folder_id, item.created_by ?? null)));
    return allowed;
  };

  const toggleSelect = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };

  const onKeyDown = async (event: KeyboardEvent<HTMLDivElement>) => {
    if (editing) return;
    const dragged = itemAt(active.row);
    if (dragged && event.altKey && groupAttribute && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) {
      // The keyboard's way to move a row to the previous or next group (pointer: drag the row).
      event.preventDefault();
      const at = groups.findIndex((g) => g.items.some((i) => i.id === dragged.id));
      const next = groups[at + (event.key === 'ArrowUp' ? -1 : 1)];
      if (at >= 0 && next) await dropRow(dragged, next.key, next.items.length);
      return;
    }
    const pageRows = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / ROW_HEIGHT) - 1);
    const next = nextCell(active, { key: event.key, ctrl: event.ctrlKey || event.metaKey, shift: event.shiftKey }, { rows: rows.length, cols: totalCols, pageRows });
    if (next) {
      event.preventDefault();
      move(next);
      return;
    }
    const row = rows[active.row];
    if (row?.kind === 'group' && (event.key === 'Enter' || event.key === ' ')) {
      event.preventDefault();
      const nextSet = new Set(collapsed);
      if (nextSet.has(row.group.key)) nextSet.delete(row.group.key);
      else nextSet.add(row.group.key);
      setCollapsed(nextSet);
      return;
    }
    const item = itemAt(active.row);
    if (!item) return;
    const attribute = active.col > 0 ? columns[active.col - 1] : undefined;
    if (event.key === ' ' && (active.col === 0 || event.shiftKey)) {
      event.preventDefault();
      toggleSelect(item.id);
    } else if ((event.key === 'Enter' || event.key === 'F2') && attribute) {
      event.preventDefault();
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) return board.openItem(item.id, item.folder_id);
      if (!READ_ONLY_KINDS.has(attribute.kind) && canEditItem(item)) setEditing(active);
    } else if ((event.key === 'Delete' || event.key === 'Backspace') && attribute && attribute.kind !== 'primary' && !READ_ONLY_KINDS.has(attribute.kind) && canEditItem(item)) {
      event.preventDefault();
      await board.actions.setValue(item, attribute, null).catch(() => undefined);
    } else if (event.key === 'Escape') {
      setSelected(new Set());
    }
  };

  const commit = async (item: Item, attribute: Attribute, value: unknown) => {
    // Invalid input stays in the editor with its message. Valid input closes the editor at once:
    // setValue shows the new value before its first await (store/pending.ts), so the cell shows
    // it in the same frame instead of after the worker's round trip.
    const checked = checkValue(attribute, value);
    if (!checked.ok) throw new ValueError(checked.message);
    const saving = board.actions.setValue(item, attribute, value);
    setEditing(null);
    focusGrid();
    try {
      await saving;
    } catch (err) {
      toast.show((err as Error).message, { kind: 'error' });
    }
  };

  // Column resize: drag a header's edge; saved to the view when released.
  const startResize = (attribute: Attribute, event: ReactPointerEvent) => {
    event.preventDefault();
    event.stopPropagation();
    const startX = event.clientX;
    const startWidth = widthOf(attribute);
    const onMove = (e: PointerEvent) => setWidths((w) => ({ ...w, [attribute.id]: clampWidth(startWidth + e.clientX - startX) }));
    const onUp = (e: PointerEvent) => {
      window.removeEventListener('pointermove', onMove);
      window.removeEventListener('pointerup', onUp);
      const width = clampWidth(startWidth + e.clientX - startX);
      void change({ column_widths: { ...settings.column_widths, [attribute.id]: width } }).then(() => setWidths((w) => Object.fromEntries(Object.entries(w).filter(([k]) => k !== attribute.id))));
    };
    window.addEventListener('pointermove', onMove);
    window.addEventListener('pointerup', onUp);
  };

  const [dragColumn, setDragColumn] = useState<string | null>(null);
  const dropColumn = (targetIndex: number) => {
    if (!dragColumn) return;
    const order = columns.filter((c) => c.kind !== 'primary').map((c) => c.id);
    void change({ column_order: moveColumn(order, dragColumn, Math.max(0, targetIndex - 1)) });
    setDragColumn(null);
  };

  const sortBy = (attribute: Attribute) => {
    const id = attribute.kind === 'primary' ? 'name' : attribute.id;
    const current = settings.sort[0];
    const direction = current?.attribute_id === id && current.direction === 'asc' ? 'desc' : 'asc';
    void change({ sort: current?.attribute_id === id && current.direction === 'desc' ? [] : [{ attribute_id: id, direction }] });
  };

  const virtualRows = rowVirtualizer.getVirtualItems();
  const blockIds = windowBlockIds(rows, virtualRows[0]?.index ?? 0, virtualRows[virtualRows.length - 1]?.index ?? -1);
  const valuesOf = useWindowValues(blockIds);
  const totalWidth = SELECT_WIDTH + colVirtualizer.getTotalSize();
  const virtualColsNow = colVirtualizer.getVirtualItems();
  const colsKey = virtualColsNow.map((vc) => `${vc.index}:${vc.start}:${vc.size}`).join(',');
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const virtualCols = useMemo(() => virtualColsNow.map(({ index, start, size }) => ({ index, start, size })), [colsKey]);
  const allSelected = items.length > 0 && items.every((i) => selected.has(i.id));

  // Rows get stable callbacks that read the latest state, so a memoised row renders again only
  // when its own item, values, place or focus change (not on every render of the table).
  const latest = useRef({ rows, columns, toggleSelect, commit, canEditItem, openItem: board.openItem });
  latest.current = { rows, columns, toggleSelect, commit, canEditItem, openItem: board.openItem };
  const onToggle = useCallback((id: string) => latest.current.toggleSelect(id), []);
  const onCommit = useCallback((item: Item, attribute: Attribute, value: unknown) => latest.current.commit(item, attribute, value), []);
  const onOpen = useCallback((item: Item) => latest.current.openItem(item.id, item.folder_id), []);
  const onCancel = useCallback(() => {
    setEditing(null);
    focusGrid();
  }, []);
  const onActivate = useCallback((rowIndex: number, col: number, edit: boolean) => {
    const { rows: currentRows, columns: currentColumns, canEditItem: canEdit } = latest.current;
    const row = currentRows[rowIndex];
    setActive({ row: rowIndex, col });
    const attribute = currentColumns[col - 1];
    if (edit && row?.kind === 'item' && attribute && !READ_ONLY_KINDS.has(attribute.kind) && canEdit(row.item)) setEditing({ row: rowIndex, col });
  }, []);

  // Dragging rows between groups (workspace.md §5 rules, as in the Column view).
  const canDragRows = !!groupAttribute && !board.readOnly && groupWriteProblem(groupAttribute) === null;
  const drag = useRowDrag({
    enabled: canDragRows,
    scrollRef,
    headerHeight: HEADER_HEIGHT,
    target: (y) => rowDropTarget(latest.current.rows, groups, y),
    canDrag: (item) => canEditItem(item),
    onDrop: (item, target) => void dropRow(item, target.key, target.index),
  });
  const startDrag = drag.start;
  const onRowPointerDown = useCallback((event: ReactPointerEvent, item: Item) => startDrag(event, item), [startDrag]);

  /** Puts a dragged (or Alt+arrowed) row into group `key` at `index`, or refuses with the rule's message. */
  const dropRow = async (item: Item, key: string, index: number) => {
    if (!groupAttribute) return;
    const fromKey = groups.find((g) => g.items.some((i) => i.id === item.id))?.key;
    const problem = dropProblem(groupAttribute, key, fromKey, canEditItem(item));
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

  return (
    <div className={`table-view${drag.state ? ' is-row-dragging' : ''}`}>
      <div
        ref={scrollRef}
        className="table-scroll"
        role="grid"
        aria-label={t`Items`}
        aria-rowcount={rows.length + 1}
        aria-colcount={totalCols}
        aria-activedescendant={rows.length ? `cell-${active.row}-${active.col}` : undefined}
        tabIndex={0}
        onKeyDown={(e) => void onKeyDown(e)}
        data-testid="table-view"
      >
        <div className="table-canvas" style={{ height: rowVirtualizer.getTotalSize() + HEADER_HEIGHT, width: totalWidth }}>
          <div className="table-header" role="row" aria-rowindex={1} style={{ width: totalWidth, height: HEADER_HEIGHT }}>
            <div className="table-cell table-select" role="columnheader" style={{ width: SELECT_WIDTH }}>
              <input type="checkbox" aria-label={t`Select all`} checked={allSelected} onChange={() => setSelected(allSelected ? new Set() : new Set(items.map((i) => i.id)))} />
            </div>
            {virtualCols.map((vc) => {
              const attribute = columns[vc.index]!;
              const sort = settings.sort.find((s) => s.attribute_id === (attribute.kind === 'primary' ? 'name' : attribute.id));
              return (
                <div
                  key={attribute.id}
                  role="columnheader"
                  aria-sort={sort ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined}
                  className={`table-cell table-head${dragColumn === attribute.id ? ' is-dragging' : ''}`}
                  style={{ position: 'absolute', left: SELECT_WIDTH + vc.start, width: vc.size }}
                  draggable={attribute.kind !== 'primary' && !board.readOnly}
                  onDragStart={(e) => {
                    setDragColumn(attribute.id);
                    e.dataTransfer.effectAllowed = 'move';
                  }}
                  onDragOver={(e) => dragColumn && e.preventDefault()}
                  onDrop={() => dropColumn(vc.index)}
                  data-attribute-id={attribute.id}
                >
                  <button type="button" className="table-head-button" onClick={() => sortBy(attribute)} tabIndex={-1}>
                    {attribute.name}
                    {sort ? (sort.direction === 'asc' ? ' ↑' : ' ↓') : ''}
                  </button>
                  <span className="col-resize" role="separator" aria-orientation="vertical" aria-label={t`Resize ${attribute.name}`} onPointerDown={(e) => startResize(attribute, e)} />
                </div>
              );
            })}
          </div>
          {virtualRows.map((vr) => {
            const row = rows[vr.index]!;
            const top = HEADER_HEIGHT + vr.start;
            if (row.kind === 'group') {
              return (
                <div key={`g-${row.group.key}`} role="row" className={`table-group-row${drag.state?.target?.key === row.group.key ? ' is-drop-target' : ''}`} style={{ top, height: ROW_HEIGHT, width: totalWidth }} aria-rowindex={vr.index + 2} data-group-key={row.group.key}>
                  <div id={`cell-${vr.index}-0`} role="gridcell" className={`table-group-title${active.row === vr.index ? ' is-active' : ''}`} aria-expanded={!row.collapsed}>
                    <button
                      type="button"
                      tabIndex={-1}
                      onClick={() => {
                        const next = new Set(collapsed);
                        if (next.has(row.group.key)) next.delete(row.group.key);
                        else next.add(row.group.key);
                        setCollapsed(next);
                      }}
                    >
                      {row.collapsed ? '▸' : '▾'}
                    </button>
                    {row.group.option ? (
                      <span className="label-chip" style={{ background: row.group.option.color, color: row.group.option.textColor }}>
                        {row.group.option.name}
                      </span>
                    ) : (
                      <span>{row.group.title || t`Empty`}</span>
                    )}
                    <span className="group-count">{row.group.items.length}</span>
                  </div>
                </div>
              );
            }
            return (
              <ItemRow
                key={row.item.id}
                item={row.item}
                values={valuesOf(row.item.id)}
                rowIndex={vr.index}
                top={top}
                width={totalWidth}
                columns={columns}
                virtualCols={virtualCols}
                active={active.row === vr.index ? active.col : -1}
                editingCol={editing && editing.row === vr.index ? editing.col : -1}
                selected={selected.has(row.item.id)}
                dragging={drag.state?.itemId === row.item.id}
                ordinal={ordinals?.get(row.item.id)}
                editable={canEditItem(row.item)}
                onToggle={onToggle}
                onActivate={onActivate}
                onCommit={onCommit}
                onCancel={onCancel}
                onOpen={onOpen}
                onPointerDown={canDragRows ? onRowPointerDown : undefined}
              />
            );
          })}
          {drag.state?.target && <div className="table-drop-marker" style={{ top: HEADER_HEIGHT + drag.state.target.y - 2, width: totalWidth }} data-testid="table-drop-marker" />}
        </div>
        {rows.length === 0 && (
          <p className="table-empty" data-testid="table-empty">
            <Trans>No items here yet.</Trans>
          </p>
        )}
      </div>
      {drag.state && (
        <div className="table-drag-ghost" style={{ left: drag.state.x + 8, top: drag.state.y + 8 }} aria-hidden="true">
          {drag.state.name}
        </div>
      )}
      {canCreate && (
        <button type="button" className="table-add-row" data-testid="add-row" onClick={() => void addItem().then((id) => id && move({ row: rows.length, col: 1 }))}>
          + <Trans>Add item</Trans>
        </button>
      )}
    </div>
  );
}

/** Custom IDs number items by creation on the board (only computed when a custom-id column shows). */
function useOrdinals(columns: Attribute[]): Map<string, number> | null {
  const board = useBoard();
  const needed = columns.some((c) => c.kind === 'custom-id');
  const [map, setMap] = useState<Map<string, number> | null>(null);
  useEffect(() => {
    if (!needed) return;
    let live = true;
    void board.backend.db.records
      .where('[collection+board_id]')
      .equals(['item', board.boardId])
      .toArray()
      .then((all) => {
        const sorted = all.sort((a, b) => String(a.created_at ?? '').localeCompare(String(b.created_at ?? '')) || a.id.localeCompare(b.id));
        if (live) setMap(new Map(sorted.map((r, i) => [r.id, i + 1])));
      });
    return () => {
      live = false;
    };
  }, [needed, board]);
  return needed ? map : null;
}

interface ItemRowProps {
  item: Item;
  values: Map<string, unknown>;
  rowIndex: number;
  top: number;
  width: number;
  columns: Attribute[];
  virtualCols: { index: number; start: number; size: number }[];
  active: number;
  editingCol: number;
  selected: boolean;
  dragging: boolean;
  ordinal?: number;
  editable: boolean;
  onToggle(id: string): void;
  onActivate(rowIndex: number, col: number, edit: boolean): void;
  onCommit(item: Item, attribute: Attribute, value: unknown): Promise<void>;
  onCancel(): void;
  onOpen(item: Item): void;
  /** Set in a grouped table where rows can be dragged between groups. */
  onPointerDown?(event: ReactPointerEvent, item: Item): void;
}

/**
 * One item's row (its values come from the window's one query). Memoised: every prop is stable
 * unless this row's item, values, place, focus or selection changed, so an edit renders one row.
 */
const ItemRow = memo(function ItemRow({ item, values, rowIndex, top, width, columns, virtualCols, active, editingCol, selected, dragging, ordinal, editable, onToggle, onActivate, onCommit, onCancel, onOpen, onPointerDown }: ItemRowProps) {
  const { t } = useLingui();
  return (
    <div
      role="row"
      aria-rowindex={rowIndex + 2}
      aria-selected={selected}
      className={`table-row${selected ? ' is-selected' : ''}${dragging ? ' is-dragging' : ''}`}
      style={{ top, height: ROW_HEIGHT, width }}
      data-item-id={item.id}
      onPointerDown={onPointerDown && editingCol < 0 ? (e) => onPointerDown(e, item) : undefined}
    >
      <div id={`cell-${rowIndex}-0`} role="gridcell" className={`table-cell table-select${active === 0 ? ' is-active' : ''}`} style={{ width: SELECT_WIDTH }} onClick={() => onActivate(rowIndex, 0, false)}>
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
            className={`table-cell${active === col ? ' is-active' : ''}${isEditing ? ' is-editing' : ''}`}
            style={{ position: 'absolute', left: SELECT_WIDTH + vc.start, width: vc.size }}
            onClick={() => onActivate(rowIndex, col, false)}
            onDoubleClick={() => onActivate(rowIndex, col, true)}
            data-attribute-id={attribute.id}
          >
            {isEditing ? (
              <ValueEditor attribute={attribute} value={value} item={item} onCommit={(v) => onCommit(item, attribute, v)} onCancel={onCancel} />
            ) : (
              <>
                <ValueDisplay attribute={attribute} value={value} item={item} ordinal={ordinal} />
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
