import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Trans, useLingui } from '@lingui/react/macro';
import { resolveViewSettings } from '../../../schema/views';
import { useBoard } from '../BoardContext';
import { useWindowValues, type Attribute, type Item } from '../store/live';
import { orderedColumns } from '../model/columns';
import type { ViewProps } from '../parts/view-props';
import { windowBlockIds } from '../table/table-rows';
import { useGroupedRows } from '../table/use-grouped-rows';
import { useSelection } from '../table/use-selection';
import { useCellEditing } from '../table/use-cell-editing';
import { listKeyAction } from './list-keys';
import { listProperties, listStatusAttribute } from './list-columns';
import { LIST_ROW_HEIGHT, ListGroupRow, ListItemRow } from './ListRow';
import { QuickAdd } from '../parts/QuickAdd';
import './list.css';

const NO_ITEMS: Item[] = [];

/**
 * The List view (issue #12): a compact, grouped, keyboard-first list. It reuses the Table's parts
 * for what is the same (grouping, selection, inline editing and its permission answers, the
 * per-block value read) and adds a one-column keyboard model (list-keys.ts) and the inline status
 * picker. The items arrive filtered, searched and sorted by the folder pane.
 */
export default function ListView({ view, items, get, valuesReady, selected, setSelected, addItem, canCreate }: ViewProps) {
  const { t } = useLingui();
  const board = useBoard();
  const [adding, setAdding] = useState(false);
  const settingsKey = JSON.stringify(view.record?.settings ?? {});
  const settings = useMemo(
    () => resolveViewSettings('list', view.record?.settings ?? {}, board.attributes),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [settingsKey, board.attributes],
  );
  const groupAttribute = settings.group_by ? board.attributes.find((a) => a.id === settings.group_by) : undefined;
  const status = listStatusAttribute(board.attributes, settings.group_by);
  const properties = useMemo(() => listProperties(orderedColumns(board.attributes, settings), status), [board.attributes, settings, status]);

  // The pane groups a List by its resolved grouping (the first status when none is saved), so
  // `get` holds the group's values, read once into the shared list and patched in place: a
  // status changed here or in another tab (it reaches this tab through the replica) regroups.
  // Until they are read, nothing is shown rather than every item in "Empty" for a frame.
  const waiting = !!groupAttribute && !valuesReady;
  const { rows, isCollapsed, toggleGroup } = useGroupedRows(waiting ? NO_ITEMS : items, groupAttribute, get, { hideEmptyGroups: settings.hide_empty_groups, groupOrder: settings.group_order });

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => LIST_ROW_HEIGHT, overscan: 10 });
  const virtualRows = virtual.getVirtualItems();
  const first = virtualRows[0]?.index ?? 0;
  const last = virtualRows[virtualRows.length - 1]?.index ?? -1;
  const valuesOf = useWindowValues(windowBlockIds(rows, first, last));

  const selection = useSelection(items, selected, setSelected);
  const focusList = () => scrollRef.current?.focus({ preventScroll: true });
  const editing = useCellEditing(focusList);
  const [active, setActive] = useState(0);
  const activeRow = Math.min(active, Math.max(0, rows.length - 1));
  useEffect(() => {
    if (active !== activeRow) setActive(activeRow);
  }, [active, activeRow]);
  const move = (index: number) => {
    setActive(index);
    virtual.scrollToIndex(index, { align: 'auto' });
  };
  const pickStatus = (index: number) => {
    const row = rows[index];
    if (!status || row?.kind !== 'item' || !editing.canEditItem(row.item)) return;
    setActive(index);
    editing.startEditing({ row: index, col: 1 });
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (editing.editing) return;
    const action = listKeyAction({ key: event.key, shift: event.shiftKey, ctrl: event.ctrlKey || event.metaKey, alt: event.altKey }, rows, activeRow, Math.floor((scrollRef.current?.clientHeight ?? 400) / LIST_ROW_HEIGHT) - 1);
    if (!action) return;
    event.preventDefault();
    switch (action.kind) {
      case 'move':
        return move(action.index);
      case 'open':
        return board.openItem(action.item.id, action.item.folder_id);
      case 'toggle-select':
        return selection.toggle(action.item.id);
      case 'toggle-group':
        return toggleGroup(action.key);
      case 'pick-status':
        return pickStatus(activeRow);
      case 'clear-selection':
        return selection.clear();
    }
  };

  // Stable callbacks that read the latest state, so memoised rows render only when their own props change.
  const latest = useRef({ rows, selection, editing, openItem: board.openItem, pickStatus });
  latest.current = { rows, selection, editing, openItem: board.openItem, pickStatus };
  const onActivate = useCallback((index: number) => {
    setActive(index);
    // A click on another row closes an open status picker (Escape does too).
    const open = latest.current.editing.editing;
    if (open && open.row !== index) latest.current.editing.cancel();
  }, []);
  const onToggle = useCallback((id: string) => latest.current.selection.toggle(id), []);
  const onOpen = useCallback((item: Item) => latest.current.openItem(item.id, item.folder_id), []);
  const onPick = useCallback((index: number) => latest.current.pickStatus(index), []);
  const onCommit = useCallback((item: Item, attribute: Attribute, value: unknown) => latest.current.editing.commit(item, attribute, value), []);
  const onCancel = useCallback(() => latest.current.editing.cancel(), []);

  return (
    <div className="list-view">
      <div
        ref={scrollRef}
        className="list-scroll"
        role="grid"
        aria-label={t`Items`}
        aria-rowcount={rows.length}
        aria-activedescendant={rows.length ? `list-row-${activeRow}` : undefined}
        aria-describedby="list-keys-hint"
        tabIndex={0}
        onKeyDown={onKeyDown}
        data-testid="list-view"
      >
        <div className="list-canvas" style={{ height: virtual.getTotalSize() }}>
          {virtualRows.map((vr) => {
            const row = rows[vr.index]!;
            if (row.kind === 'group') {
              return <ListGroupRow key={`g-${row.group.key}`} group={row.group} index={vr.index} top={vr.start} active={activeRow === vr.index} collapsed={isCollapsed(row.group.key)} onActivate={onActivate} onToggle={toggleGroup} />;
            }
            return (
              <ListItemRow
                key={row.item.id}
                item={row.item}
                values={valuesOf(row.item.id)}
                index={vr.index}
                top={vr.start}
                active={activeRow === vr.index}
                selected={selected.has(row.item.id)}
                editable={editing.canEditItem(row.item)}
                status={status}
                properties={properties}
                picking={editing.editing?.row === vr.index}
                onActivate={onActivate}
                onToggle={onToggle}
                onOpen={onOpen}
                onPick={onPick}
                onCommit={onCommit}
                onCancel={onCancel}
              />
            );
          })}
        </div>
        {rows.length === 0 && !waiting && (
          <p className="list-empty" data-testid="list-empty">
            <Trans>No items here yet.</Trans>
          </p>
        )}
      </div>
      <p id="list-keys-hint" className="list-keys-hint">
        <Trans>j and k or the arrows move, Enter opens, x selects, s changes the status.</Trans>
      </p>
      {canCreate &&
        (adding ? (
          <QuickAdd onAdd={(name) => addItem(undefined, undefined, name)} onClose={() => setAdding(false)} autoFocus className="list-quick-add" testId="list-add-input" />
        ) : (
          <button type="button" className="table-add-row" data-testid="add-row" onClick={() => setAdding(true)}>
            + <Trans>Add item</Trans>
          </button>
        ))}
    </div>
  );
}
