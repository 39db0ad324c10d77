import { memo, type KeyboardEvent } from 'react';
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useLingui } from '@lingui/react/macro';
import type { Item } from '../store/live';
import type { DragData } from '../../ui/drag/data';
import { CardTimers } from '../time/TimerControl';
import { CardButtons } from '../automations/ButtonControl';

export interface KanbanCardProps {
  item: Item;
  columnKey: string;
  draggable: boolean;
  /** Keys the card handles itself before the drag does (Enter opens, Alt+arrows move); true when handled. */
  onKey(event: KeyboardEvent, item: Item, key: string): boolean;
  onOpen(item: Item): void;
}

/** One card of a column: sortable within and between columns by pointer, touch and keyboard (Space, arrows, Space). */
export const KanbanCard = memo(function KanbanCard({ item, columnKey, draggable, onKey, onOpen }: KanbanCardProps) {
  const { t } = useLingui();
  const name = item.name || t`Untitled`;
  const data: DragData & { key: string } = { type: 'card', accepts: ['card'], label: name, key: columnKey };
  const { setNodeRef, setActivatorNodeRef, attributes, listeners, transform, transition, isDragging } = useSortable({ id: item.id, data, disabled: !draggable });
  return (
    <li ref={setNodeRef} style={{ transform: CSS.Translate.toString(transform), transition }}>
      <div
        ref={setActivatorNodeRef}
        {...attributes}
        {...listeners}
        className={`kanban-card${isDragging ? ' is-dragging' : ''}`}
        data-card-id={item.id}
        tabIndex={0}
        role="button"
        aria-roledescription={t`card`}
        onClick={() => onOpen(item)}
        onKeyDown={(e) => {
          if (!onKey(e, item, columnKey)) listeners?.onKeyDown?.(e);
        }}
      >
        {name}
        <CardTimers item={item} />
        <CardButtons item={item} />
      </div>
    </li>
  );
});
