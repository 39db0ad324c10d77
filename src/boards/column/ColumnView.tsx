import { useMemo, useRef, useState, type KeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { DRAG_THRESHOLD } from '../../../schema/constants';
import { toast } from '../../ui/toast-store';
import { useBoard } from '../BoardContext';
import type { Item } from '../store/live';
import { arrangeGroupsProblem, columnGroupProblem, moveIntoGroupProblem, valueForGroup } from '../model/groups';
import { positionBetween, sortByPosition } from '../model/positions';
import { groupItems, type Group } from '../model/query';
import { useChangeView } from '../parts/use-change-view';
import type { ViewProps } from '../parts/view-props';

/**
 * The Column (kanban) view: one column per status or single-choice label, cards dragged with
 * pointer events between and within columns (mouse, pen and touch alike), and from the keyboard
 * (Alt+arrows). The group rules of workspace.md §5 refuse moves into groups that cannot hold items
 * and ask to disable hide-empty-groups before columns are rearranged.
 */

interface Drag {
  itemId: string;
  fromKey: string;
  startX: number;
  startY: number;
  x: number;
  y: number;
  active: boolean;
  target: { key: string; index: number } | null;
}

export function ColumnView({ view, items, get, addItem, canCreate, folder }: ViewProps) {
  const { t } = useLingui();
  const board = useBoard();
  const change = useChangeView(folder, view);
  const settings = view.settings;
  const attribute = settings.group_by ? board.attributes.find((a) => a.id === settings.group_by) : undefined;
  const candidates = board.attributes.filter((a) => columnGroupProblem(a) === null);
  const boardRef = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<Drag | null>(null);
  const [dragColumn, setDragColumn] = useState<string | null>(null);

  const groups = useMemo(() => {
    if (!attribute) return [];
    const list = groupItems(items, attribute, get, { hideEmptyGroups: settings.hide_empty_groups, groupOrder: settings.group_order });
    // Within a column, cards follow their position unless the view sorts them.
    return settings.sort.length ? list : list.map((g) => ({ ...g, items: sortByPosition(g.items) }));
  }, [attribute, items, get, settings.hide_empty_groups, settings.group_order, settings.sort.length]);

  if (!attribute) {
    return (
      <div className="column-setup" data-testid="column-setup">
        <p>
          <Trans>Choose the status or label that makes the columns.</Trans>
        </p>
        <select aria-label={t`Group by`} defaultValue="" onChange={(e) => e.target.value && void change({ group_by: e.target.value })}>
          <option value="" />
          {candidates.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </select>
      </div>
    );
  }

  const canEdit = (item: Item) => board.can('EDIT_ITEM', item.folder_id, item.created_by ?? null);

  /** Drops a card at index `index` of the column `key` (after the rules say yes). */
  const drop = async (item: Item, fromKey: string, key: string, index: number) => {
    if (!canEdit(item)) return void toast.show(t`This action is unauthorized.`, { kind: 'error' });
    const moving = key !== fromKey;
    if (moving) {
      const problem = moveIntoGroupProblem(attribute, key);
      if (problem) return void toast.show(problem, { kind: 'error' });
    }
    const column = groups.find((g) => g.key === key)?.items.filter((i) => i.id !== item.id) ?? [];
    const before = index > 0 ? (column[index - 1]?.position ?? null) : null;
    const after = index < column.length ? (column[index]?.position ?? null) : null;
    const position = settings.sort.length ? null : positionBetween(before, after);
    await board.actions.moveCard(item, moving ? { attribute, value: valueForGroup(attribute, key) } : null, position);
  };

  const targetAt = (x: number, y: number): { key: string; index: number } | null => {
    const root = boardRef.current;
    if (!root) return null;
    for (const col of root.querySelectorAll<HTMLElement>('[data-column-key]')) {
      const rect = col.getBoundingClientRect();
      if (x < rect.left || x > rect.right) continue;
      const cards = [...col.querySelectorAll<HTMLElement>('[data-card-id]')].filter((c) => c.dataset.cardId !== drag?.itemId);
      let index = cards.length;
      for (let i = 0; i < cards.length; i++) {
        const r = cards[i]!.getBoundingClientRect();
        if (y < r.top + r.height / 2) {
          index = i;
          break;
        }
      }
      return { key: col.dataset.columnKey!, index };
    }
    return null;
  };

  const onPointerDown = (event: ReactPointerEvent, item: Item, key: string) => {
    if (event.button !== 0 || board.readOnly || !canEdit(item)) return;
    const start: Drag = { itemId: item.id, fromKey: key, startX: event.clientX, startY: event.clientY, x: event.clientX, y: event.clientY, active: false, target: null };
    let current = start;
    const onMove = (e: PointerEvent) => {
      const moved = Math.abs(e.clientX - start.startX) + Math.abs(e.clientY - start.startY);
      if (!current.active && moved <= DRAG_THRESHOLD) return;
      current = { ...current, active: true, x: e.clientX, y: e.clientY, target: targetAt(e.clientX, e.clientY) };
      setDrag(current);
    };
    const onUp = () => {
      window.removeEventListener('pointermove', onMove);
      window.removeEventListener('pointerup', onUp);
      window.removeEventListener('pointercancel', onUp);
      setDrag(null);
      if (current.active && current.target) void drop(item, key, current.target.key, current.target.index);
    };
    window.addEventListener('pointermove', onMove);
    window.addEventListener('pointerup', onUp);
    window.addEventListener('pointercancel', onUp);
  };

  const onCardKey = (event: KeyboardEvent, item: Item, key: string, index: number) => {
    if (event.key === 'Enter') return board.openItem(item.id, item.folder_id);
    if (!event.altKey) return;
    const at = groups.findIndex((g) => g.key === key);
    if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      const next = groups[at + (event.key === 'ArrowLeft' ? -1 : 1)];
      if (next) {
        event.preventDefault();
        void drop(item, key, next.key, next.items.length);
      }
    } else if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
      event.preventDefault();
      void drop(item, key, key, Math.max(0, index + (event.key === 'ArrowUp' ? -1 : 1)));
    }
  };

  const reorderColumns = (targetKey: string) => {
    const problem = arrangeGroupsProblem(settings.hide_empty_groups);
    if (problem) return void toast.show(problem, { kind: 'error' });
    if (!dragColumn || dragColumn === targetKey) return;
    const keys = groups.map((g) => g.key).filter((k) => k !== dragColumn);
    const at = keys.indexOf(targetKey);
    keys.splice(at, 0, dragColumn);
    void change({ group_order: keys });
    setDragColumn(null);
  };

  const dragged = drag?.active ? items.find((i) => i.id === drag.itemId) : undefined;
  return (
    <div className="column-view" ref={boardRef} data-testid="column-view">
      {groups.map((group: Group<Item>) => (
        <section
          key={group.key}
          className={`kanban-column${drag?.target?.key === group.key ? ' is-target' : ''}`}
          data-column-key={group.key}
          aria-label={group.option?.name ?? (group.title || t`Empty`)}
          onDragOver={(e) => dragColumn && e.preventDefault()}
          onDrop={() => reorderColumns(group.key)}
        >
          <header
            className="kanban-column-head"
            draggable={!board.readOnly}
            onDragStart={(e) => {
              if (arrangeGroupsProblem(settings.hide_empty_groups)) {
                e.preventDefault();
                toast.show(arrangeGroupsProblem(true)!, { kind: 'error' });
                return;
              }
              setDragColumn(group.key);
            }}
          >
            {group.option ? (
              <span className="label-chip" style={{ background: group.option.color, color: group.option.textColor }}>
                {group.option.name}
              </span>
            ) : (
              <span>{group.title || t`Empty`}</span>
            )}
            <span className="group-count">{group.items.length}</span>
          </header>
          <ol className="kanban-cards">
            {group.items.map((item, index) => (
              <li key={item.id}>
                {drag?.active && drag.target?.key === group.key && drag.target.index === index && <div className="kanban-drop-marker" />}
                <div
                  className={`kanban-card${drag?.active && drag.itemId === item.id ? ' is-dragging' : ''}`}
                  data-card-id={item.id}
                  tabIndex={0}
                  role="button"
                  aria-roledescription={t`card`}
                  onPointerDown={(e) => onPointerDown(e, item, group.key)}
                  onClick={() => !drag?.active && board.openItem(item.id, item.folder_id)}
                  onKeyDown={(e) => onCardKey(e, item, group.key, index)}
                >
                  {item.name || t`Untitled`}
                </div>
              </li>
            ))}
            {drag?.active && drag.target?.key === group.key && drag.target.index >= group.items.filter((i) => i.id !== drag.itemId).length && <li className="kanban-drop-marker" />}
          </ol>
          {canCreate && moveIntoGroupProblem(attribute, group.key) === null && (
            <button type="button" className="kanban-add" onClick={() => void addItem({ [attribute.id]: valueForGroup(attribute, group.key) }, group.key)}>
              + <Trans>Add item</Trans>
            </button>
          )}
        </section>
      ))}
      {dragged && drag && (
        <div className="kanban-card kanban-ghost" style={{ left: drag.x + 8, top: drag.y + 8 }} aria-hidden="true">
          {dragged.name}
        </div>
      )}
    </div>
  );
}
