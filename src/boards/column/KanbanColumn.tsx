import { useDroppable } from '@dnd-kit/core';
import { SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type KeyboardEvent } from 'react';
import { Plus } from 'lucide-react';
import type { Attribute, Item } from '../store/live';
import type { Group } from '../model/query';
import type { DragData } from '../../ui/drag/data';
import { KanbanCard } from './KanbanCard';
import { QuickAdd } from '../parts/QuickAdd';

export interface KanbanColumnProps {
  group: Group<Item>;
  /** The values cards show besides the name (card-fields.ts), and a reader of an item's values. */
  fields: Attribute[];
  valuesOf(itemId: string): Map<string, unknown>;
  /** Columns can be dragged by their header (the view is not read-only). */
  arrangeable: boolean;
  canDragCard(item: Item): boolean;
  onCardKey(event: KeyboardEvent, item: Item, key: string): boolean;
  onOpen(item: Item): void;
  /** Set when items may be added to this column: stores one item named `name` in it. */
  onAdd?(name: string): Promise<unknown>;
}

export const columnDragId = (key: string) => `column:${key}`;
export const cardsDropId = (key: string) => `cards:${key}`;

/**
 * One column: a sortable column (dragged by its header) and a drop place for cards, which lands
 * at its end when no card is under the pointer (an empty column takes cards too).
 */
export function KanbanColumn({ group, fields, valuesOf, arrangeable, canDragCard, onCardKey, onOpen, onAdd }: KanbanColumnProps) {
  const { t } = useLingui();
  const [adding, setAdding] = useState(false);
  const title = group.option?.name ?? (group.title || t`Empty`);
  const columnData: DragData & { key: string } = { type: 'column', accepts: ['column'], label: title, key: group.key };
  const sortable = useSortable({ id: columnDragId(group.key), data: columnData, disabled: !arrangeable });
  const cardsData: DragData & { key: string } = { accepts: ['card'], label: title, key: group.key };
  const cards = useDroppable({ id: cardsDropId(group.key), data: cardsData });
  return (
    <section
      ref={(node) => {
        sortable.setNodeRef(node);
        cards.setNodeRef(node);
      }}
      style={{ transform: CSS.Translate.toString(sortable.transform), transition: sortable.transition }}
      className={`kanban-column${cards.isOver ? ' is-target' : ''}${sortable.isDragging ? ' is-dragging' : ''}`}
      data-column-key={group.key}
      aria-label={title}
    >
      <header ref={sortable.setActivatorNodeRef} className="kanban-column-head" {...sortable.attributes} {...sortable.listeners} tabIndex={arrangeable ? 0 : undefined} aria-roledescription={t`column`}>
        {group.option ? (
          <span className="label-chip" style={{ background: group.option.color, color: group.option.textColor }}>
            {group.option.name}
          </span>
        ) : (
          <span>{group.title || t`Empty`}</span>
        )}
        <span className="group-count">{group.items.length}</span>
      </header>
      <SortableContext id={group.key} items={group.items.map((i) => i.id)} strategy={verticalListSortingStrategy}>
        <ol className="kanban-cards">
          {group.items.map((item) => (
            <KanbanCard key={item.id} item={item} fields={fields} values={valuesOf(item.id)} columnKey={group.key} draggable={canDragCard(item)} onKey={onCardKey} onOpen={onOpen} />
          ))}
        </ol>
      </SortableContext>
      {onAdd &&
        (adding ? (
          <QuickAdd onAdd={onAdd} onClose={() => setAdding(false)} autoFocus className="kanban-quick-add" testId="kanban-add-input" />
        ) : (
          <button type="button" className="kanban-add" data-testid="kanban-add" onClick={() => setAdding(true)}>
            <Plus size={14} aria-hidden="true" /> <Trans>Add item</Trans>
          </button>
        ))}
    </section>
  );
}
