import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { closestCenter, closestCorners, pointerWithin, type CollisionDetection, type DragEndEvent, type DragOverEvent, type DragStartEvent } from '@dnd-kit/core';
import { horizontalListSortingStrategy, SortableContext } from '@dnd-kit/sortable';
import { Trans, useLingui } from '@lingui/react/macro';
import { toast } from '../../ui/toast-store';
import { DragArea } from '../../ui/drag/DragArea';
import { dragData } from '../../ui/drag/data';
import { inlineStep, isRtl } from '../../ui/drag/direction';
import { useBoard } from '../BoardContext';
import { useWindowValues, type Item } from '../store/live';
import { cardFields } from './card-fields';
import { arrangeGroupsProblem, moveIntoGroupProblem, valueForGroup } from '../model/groups';
import { positionBetween, sortByPosition } from '../model/positions';
import { groupItems } from '../model/query';
import { useChangeView } from '../parts/use-change-view';
import type { ViewProps } from '../parts/view-props';
import { dropIndex, previewGroups, previewIndex, reorderedKeys, type CardPreview } from './card-moves';
import { columnDragId, KanbanColumn } from './KanbanColumn';
import './kanban-drag.css';
import { DEFAULT_STATUS_OPTIONS } from '../../../schema/board-defaults';

/**
 * The Column (kanban) view: one column per status or single-choice label. Cards are dragged
 * between and within columns, and columns by their header, with the app's one drag library
 * (mouse, touch, keyboard: Space, arrows, Space); Alt+arrows move a focused card in one stroke.
 * The group rules of workspace.md §5 refuse moves into groups that cannot hold items and ask to
 * disable hide-empty-groups before columns are rearranged.
 */

type KeyData = { key?: string; type?: string };
const keyOf = (holder: Parameters<typeof dragData>[0]) => (dragData(holder) as KeyData | undefined)?.key;

/** Cards: the column under the pointer, then the card in it nearest the dragged one; keyboard drags by corners. */
const collision: CollisionDetection = (args) => {
  if (dragData(args.active)?.type === 'column') return closestCenter(args);
  if (args.pointerCoordinates) {
    const columns = args.droppableContainers.filter((c) => !dragData(c)?.type);
    const within = pointerWithin({ ...args, droppableContainers: columns });
    const column = columns.find((c) => c.id === within[0]?.id);
    if (!column) return [];
    const cards = args.droppableContainers.filter((c) => dragData(c)?.type === 'card' && keyOf(c) === keyOf(column));
    return cards.length ? closestCenter({ ...args, droppableContainers: cards }) : within;
  }
  return closestCorners(args);
};

export function ColumnView({ view, items, get, addItem, canCreate, folder }: ViewProps) {
  const { t } = useLingui();
  const board = useBoard();
  const change = useChangeView(folder, view);
  const settings = view.settings;
  // The pane resolved the grouping (resolveViewSettings): a saved choice, else the first status or label.
  const attribute = settings.group_by ? board.attributes.find((a) => a.id === settings.group_by) : undefined;
  const rootRef = useRef<HTMLDivElement>(null);
  const [preview, setPreview] = useState<CardPreview | null>(null);
  // A drag ends with a mouse-up on the card; the click that follows must not open it.
  const dragging = useRef(false);

  const groups = useMemo(() => {
    if (!attribute) return [];
    const list = groupItems(items, attribute, get, { hideEmptyGroups: settings.hide_empty_groups, groupOrder: settings.group_order });
    // Within a column, cards follow their position unless the view sorts them.
    return settings.sort.length ? list : list.map((g) => ({ ...g, items: sortByPosition(g.items) }));
  }, [attribute, items, get, settings.hide_empty_groups, settings.group_order, settings.sort.length]);
  const shown = useMemo(() => previewGroups(groups, preview), [groups, preview]);
  // What cards show besides the name: the view's columns (owner, dates, labels…), read in one query.
  const fields = useMemo(() => cardFields(board.attributes, settings, attribute?.id), [board.attributes, settings, attribute?.id]);
  const cardIds = useMemo(() => (fields.length ? items.map((i) => i.id) : []), [items, fields.length]);
  const valuesOf = useWindowValues(cardIds);

  if (!attribute) return <NoColumnAttribute onCreated={(id) => void change({ group_by: id })} />;

  const canEdit = (item: Item) => board.can('EDIT_ITEM', item.folder_id, item.created_by ?? null);
  const fromKeyOf = (itemId: string) => groups.find((g) => g.items.some((i) => i.id === itemId))?.key;

  /** Drops a card at index `index` of the column `key`, counted without the card (after the rules say yes). */
  const drop = async (item: Item, fromKey: string, key: string, index: number) => {
    if (!canEdit(item)) return void toast.show(t`This action is unauthorized.`, { kind: 'error' });
    const moving = key !== fromKey;
    if (moving) {
      const problem = moveIntoGroupProblem(attribute, key);
      if (problem) return void toast.show(problem, { kind: 'error' });
    }
    const column = groups.find((g) => g.key === key)?.items.filter((i) => i.id !== item.id) ?? [];
    if (!moving && groups.find((g) => g.key === key)?.items.findIndex((i) => i.id === item.id) === index) return;
    const before = index > 0 ? (column[index - 1]?.position ?? null) : null;
    const after = index < column.length ? (column[index]?.position ?? null) : null;
    const position = settings.sort.length ? null : positionBetween(before, after);
    try {
      await board.actions.moveCard(item, moving ? { attribute, value: valueForGroup(attribute, key) } : null, position);
    } catch (error) {
      toast.show((error as Error).message, { kind: 'error' });
    }
  };

  /** Alt+arrows: up and down within the column, left and right to the neighbouring column (as seen, also right to left). */
  const onCardKey = (event: KeyboardEvent, item: Item, key: string): boolean => {
    if (dragging.current) return true; // the keyboard drag owns the keys until it drops
    if (event.key === 'Enter') {
      board.openItem(item.id, item.folder_id);
      return true;
    }
    if (!event.altKey) return false;
    const at = groups.findIndex((g) => g.key === key);
    const index = groups[at]?.items.findIndex((i) => i.id === item.id) ?? -1;
    const step = inlineStep(event.key, isRtl(rootRef.current));
    if (step !== 0) {
      const next = groups[at + step];
      if (next) {
        event.preventDefault();
        void drop(item, key, next.key, next.items.length);
      }
      return true;
    }
    if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
      event.preventDefault();
      void drop(item, key, key, Math.max(0, index + (event.key === 'ArrowUp' ? -1 : 1)));
      return true;
    }
    return false;
  };

  const onDragStart = ({ active }: DragStartEvent) => {
    dragging.current = true;
    const data = dragData(active);
    if (data?.type === 'card') {
      // The preview starts where the card is, so nothing moves until it is dragged somewhere.
      const key = keyOf(active)!;
      const index = groups.find((g) => g.key === key)?.items.findIndex((i) => i.id === active.id) ?? 0;
      setPreview({ itemId: String(active.id), key, index: Math.max(0, index) });
    }
    else if (data?.type === 'column') {
      const problem = arrangeGroupsProblem(settings.hide_empty_groups);
      if (problem) toast.show(problem, { kind: 'error' });
    }
  };

  const onDragOver = ({ active, over }: DragOverEvent) => {
    if (dragData(active)?.type !== 'card' || !over || !preview) return;
    const overKey = keyOf(over);
    if (!overKey || overKey === preview.key) return; // within a column the sortable makes room itself
    const overCard = dragData(over)?.type === 'card' ? String(over.id) : null;
    const activeRect = active.rect.current.translated;
    const below = !!activeRect && activeRect.top + activeRect.height / 2 > over.rect.top + over.rect.height / 2;
    setPreview({ itemId: preview.itemId, key: overKey, index: previewIndex(shown, overKey, overCard, below) });
  };

  const finish = () => {
    setPreview(null);
    setTimeout(() => (dragging.current = false));
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    const data = dragData(active);
    const key = preview?.key;
    finish();
    if (!over) return;
    if (data?.type === 'column') {
      const problem = arrangeGroupsProblem(settings.hide_empty_groups);
      if (problem) return; // said when the drag began
      const from = keyOf(active);
      const to = keyOf(over);
      if (!from || !to || from === to) return;
      void change({ group_order: reorderedKeys(groups.map((g) => g.key), from, to) });
      return;
    }
    const item = items.find((i) => i.id === active.id);
    const fromKey = fromKeyOf(String(active.id));
    if (!item || !fromKey || !key) return;
    const overCard = dragData(over)?.type === 'card' && keyOf(over) === key ? String(over.id) : null;
    void drop(item, fromKey, key, dropIndex(shown, key, item.id, overCard));
  };

  return (
    <div className="column-view" ref={rootRef} data-testid="column-view">
      <DragArea collision={collision} onDragStart={onDragStart} onDragOver={onDragOver} onDragEnd={onDragEnd} onDragCancel={finish}>
        <SortableContext items={shown.map((g) => columnDragId(g.key))} strategy={horizontalListSortingStrategy}>
          {shown.map((group) => (
            <KanbanColumn
              key={group.key}
              group={group}
              fields={fields}
              valuesOf={valuesOf}
              arrangeable={!board.readOnly}
              canDragCard={(item) => !board.readOnly && canEdit(item)}
              onCardKey={onCardKey}
              onOpen={(item) => !dragging.current && board.openItem(item.id, item.folder_id)}
              onAdd={canCreate && moveIntoGroupProblem(attribute, group.key) === null ? (name) => addItem({ [attribute.id]: valueForGroup(attribute, group.key) }, group.key, name) : undefined}
            />
          ))}
        </SortableContext>
      </DragArea>
    </div>
  );
}

/**
 * A board with no status or single label yet: the Kanban view says what it needs and makes a Status
 * column with the usual statuses in one click (for those who may manage columns).
 */
function NoColumnAttribute({ onCreated }: { onCreated(id: string): void }) {
  const { t } = useLingui();
  const board = useBoard();
  const [busy, setBusy] = useState(false);
  const canCreate = !board.readOnly && board.can('MANAGE_ATTRIBUTES', board.boardId);
  const names: Record<string, string> = { todo: t`To do`, doing: t`In progress`, done: t`Done`, stuck: t`Stuck` };
  const create = async () => {
    setBusy(true);
    try {
      const options = DEFAULT_STATUS_OPTIONS.map((o) => ({ ...o, name: names[o.id] ?? o.name, done: o.id === 'done' }));
      onCreated(await board.actions.createAttribute({ name: t`Status`, kind: 'status', settings: { options } }, board.attributes));
    } catch (error) {
      toast.show((error as Error).message, { kind: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="column-setup" data-testid="column-setup">
      <p>
        <Trans>The Kanban view makes a column for each status. This board has no Status column yet.</Trans>
      </p>
      {canCreate ? (
        <button type="button" className="ui-button ui-button--primary ui-button--md" disabled={busy} onClick={() => void create()} data-testid="create-status">
          <Trans>Add a Status column</Trans>
        </button>
      ) : (
        <p className="muted">
          <Trans>Ask someone who may manage the board's columns to add one.</Trans>
        </p>
      )}
    </div>
  );
}
