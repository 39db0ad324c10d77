import { memo, type KeyboardEvent } from 'react';
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useLingui } from '@lingui/react/macro';
import type { Attribute, Item } from '../store/live';
import { AvatarImage } from '../../ui/Avatar';
import { ValueDisplay } from '../parts/values';
import { useBoard } from '../BoardContext';
import type { DragData } from '../../ui/drag/data';
import { CardTimers } from '../time/TimerControl';
import { CardButtons } from '../automations/ButtonControl';
import { ConflictMarker } from '../parts/ConflictMarker';

export interface KanbanCardProps {
  item: Item;
  /** The attributes shown under the name (empty values are left out) and this item's values. */
  fields: Attribute[];
  values: Map<string, unknown>;
  columnKey: string;
  draggable: boolean;
  /** Keys the card handles itself before the drag does (Enter opens, Alt+arrows move); true when handled. */
  onKey(event: KeyboardEvent, item: Item, key: string): boolean;
  onOpen(item: Item): void;
}

/** One card of a column: sortable within and between columns by pointer, touch and keyboard (Space, arrows, Space). */
export const KanbanCard = memo(function KanbanCard({ item, fields, values, columnKey, draggable, onKey, onOpen }: KanbanCardProps) {
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
        <span className="kanban-card-name">
          {name}
          <ConflictMarker itemId={item.id} />
        </span>
        <CardValues item={item} fields={fields} values={values} />
        <CardTimers item={item} />
        <CardButtons item={item} />
      </div>
    </li>
  );
});

/** The view's values on a card: people as avatars, the rest as the table shows them. */
function CardValues({ item, fields, values }: { item: Item; fields: Attribute[]; values: Map<string, unknown> }) {
  const board = useBoard();
  const shown = fields.filter((a) => {
    const v = values.get(a.id);
    return v !== null && v !== undefined && v !== '' && v !== false && !(Array.isArray(v) && v.length === 0);
  });
  if (shown.length === 0) return null;
  return (
    <span className="kanban-card-values">
      {shown.map((attribute) => {
        const value = values.get(attribute.id);
        if (attribute.kind === 'members' && Array.isArray(value)) {
          const people = (value as number[]).map((id) => board.info?.members.find((m) => m.id === id)).filter((m) => m !== undefined);
          return (
            <span key={attribute.id} className="kanban-card-people" data-card-field={attribute.kind} title={`${attribute.name}: ${people.map((m) => m.name).join(', ')}`}>
              {people.slice(0, 3).map((m) => (
                <AvatarImage key={m.id} name={m.name} photoUrl={m.photo_url} size="xs" />
              ))}
            </span>
          );
        }
        return (
          <span key={attribute.id} className="kanban-card-value" data-card-field={attribute.kind} title={attribute.name}>
            <ValueDisplay attribute={attribute} value={value} item={item} />
          </span>
        );
      })}
    </span>
  );
}
