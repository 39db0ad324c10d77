import { memo, useMemo, type CSSProperties, type MouseEvent as ReactMouseEvent, type RefObject } from 'react';
import { useDraggable } from '@dnd-kit/core';
import { useLingui } from '@lingui/react/macro';
import type { DragData } from '../../ui/drag/data';
import type { DayChip, MonthDay } from './calendar-events';

/** What a drag in the month grid moves: a whole item, one edge of its range, or an undated item from the side list. */
export type MonthDrag = 'move' | 'start' | 'end';

export interface ChipDragData extends DragData {
  itemId: string;
  /** The day the drag began on (a drop on another day moves the item by the difference). */
  day: string;
  drag: MonthDrag;
}

export interface MonthGridProps {
  gridRef: RefObject<HTMLTableElement | null>;
  /** The six weeks shown, each day with its items (identity kept while a day's content is the same). */
  days: readonly MonthDay[];
  /** `YYYY-MM` of the month shown (the days around it are dimmed). */
  month: string;
  today: string;
  locale: string;
  /** The day a drag is over (highlighted), and the item being dragged. */
  overDay: string | null;
  dragging: string | null;
  canCreate: boolean;
  onOpen(itemId: string): void;
  onMore(day: string): void;
  onCreate(day: string): void;
}

/** Date formatters by language and options (making one costs more than formatting with it). */
const formatters = new Map<string, Intl.DateTimeFormat>();
export function formatterFor(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}\u0000${JSON.stringify(options)}`;
  let format = formatters.get(key);
  if (!format) formatters.set(key, (format = new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' })));
  return format;
}
/** A board day or time as the user reads it (board dates are wall clock: formatted as UTC). */
export const dateText = (locale: string, text: string, options: Intl.DateTimeFormatOptions) =>
  formatterFor(locale, options).format(new Date(text.length > 10 ? `${text.slice(0, 16)}:00Z` : `${text.slice(0, 10)}T00:00:00Z`));

/**
 * The Calendar's month (decision 0305): six weeks of days in a table, each with at most three
 * items and a "+N more" that opens the day. Our own grid rather than FullCalendar's: a drop
 * re-renders the two days that changed, where the library redrew and measured the whole month
 * before our handler ran. Items are dnd-kit draggables (the app's drag, decision 0104: mouse,
 * touch, Space + arrows + Space) in the view's DragArea; a range's first and last day carry its
 * edges. A click on a day's empty space creates an item there. Right to left by the page's
 * direction (the table mirrors).
 */
export function MonthGrid({ gridRef, days, month, today, locale, overDay, dragging, canCreate, onOpen, onMore, onCreate }: MonthGridProps) {
  const weekdays = useMemo(() => days.slice(0, 7).map((d) => ({ short: dateText(locale, d.day, { weekday: 'short' }), long: dateText(locale, d.day, { weekday: 'long' }) })), [days, locale]);
  const weeks: MonthDay[][] = [];
  for (let i = 0; i < days.length; i += 7) weeks.push(days.slice(i, i + 7) as MonthDay[]);
  return (
    <table ref={gridRef} className="calendar-month" data-testid="calendar-month">
      <thead>
        <tr>
          {weekdays.map((w, i) => (
            <th key={i} scope="col" abbr={w.long}>
              {w.short}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {weeks.map((week) => (
          <tr key={week[0]!.day}>
            {week.map((d) => (
              <DayCell
                key={d.day}
                day={d}
                locale={locale}
                isOther={d.day.slice(0, 7) !== month}
                isToday={d.day === today}
                isOver={d.day === overDay}
                dragging={dragging !== null && d.chips.some((c) => c.id === dragging) ? dragging : null}
                canCreate={canCreate}
                onOpen={onOpen}
                onMore={onMore}
                onCreate={onCreate}
              />
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

interface DayCellProps {
  day: MonthDay;
  locale: string;
  isOther: boolean;
  isToday: boolean;
  isOver: boolean;
  dragging: string | null;
  canCreate: boolean;
  onOpen(itemId: string): void;
  onMore(day: string): void;
  onCreate(day: string): void;
}

/** One day: its number, its items, its "+N more". Renders again only when one of these changed. */
const DayCell = memo(function DayCell({ day, locale, isOther, isToday, isOver, dragging, canCreate, onOpen, onMore, onCreate }: DayCellProps) {
  const { t } = useLingui();
  const more = (n: number) => t`+${n} more`;
  const onClick = (event: ReactMouseEvent) => {
    // Only the day's own space creates: an item, a handle or the "+N more" do their own thing.
    if (!canCreate || (event.target as Element).closest('.calendar-event, .calendar-edge, button')) return;
    onCreate(day.day);
  };
  const className = `calendar-day${isOther ? ' is-other' : ''}${isToday ? ' is-today' : ''}${isOver ? ' is-over' : ''}`;
  return (
    <td className={className} data-date={day.day} onClick={onClick} aria-current={isToday ? 'date' : undefined}>
      <div className="calendar-day-number">
        <time dateTime={day.day} aria-label={dateText(locale, day.day, { dateStyle: 'full' })}>
          {dateText(locale, day.day, { day: 'numeric' })}
        </time>
      </div>
      <div className="calendar-day-items">
        {day.chips.map((chip) => (
          <Chip key={chip.id} chip={chip} day={day.day} locale={locale} dragging={chip.id === dragging} onOpen={onOpen} />
        ))}
        {day.more > 0 && (
          <button type="button" className="calendar-more" onClick={() => onMore(day.day)}>
            {more(day.more)}
          </button>
        )}
      </div>
    </td>
  );
});

/** One item on one day: opens on a click or Enter, and is its own drag handle (Space, arrows, Space from the keyboard); a range's edges beside it. */
const Chip = memo(function Chip({ chip, day, locale, dragging, onOpen }: { chip: DayChip; day: string; locale: string; dragging: boolean; onOpen(itemId: string): void }) {
  const data: ChipDragData = { type: 'calendar-event', itemId: chip.id, day, drag: 'move', label: chip.title };
  const { setNodeRef, listeners, attributes, transform } = useDraggable({ id: `${chip.id}:${day}:move`, data, disabled: !chip.editable });
  const style: CSSProperties | undefined = transform ? { transform: `translate3d(${transform.x}px, ${transform.y}px, 0)` } : undefined;
  const time = chip.time ? dateText(locale, `${day}T${chip.time}`, { hour: 'numeric', minute: '2-digit' }) : null;
  const className = `calendar-event${chip.isStart ? ' is-start' : ''}${chip.isEnd ? ' is-end' : ''}${chip.editable ? ' is-editable' : ''}${dragging ? ' is-dragging' : ''}${transform ? ' is-moving' : ''}`;
  return (
    <div className="calendar-event-slot">
      {chip.resizable && chip.isStart && <Edge chip={chip} day={day} edge="start" />}
      {/* Not a <button>: Space picks the item up (dnd-kit), and a button's own Space would open it on release. */}
      <div
        ref={setNodeRef}
        className={className}
        style={style}
        data-item-id={chip.id}
        {...attributes}
        {...listeners}
        // Also when not editable (dnd-kit's attributes give these): opens from the keyboard.
        role="button"
        tabIndex={0}
        onClick={() => onOpen(chip.id)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') onOpen(chip.id);
          else listeners?.onKeyDown?.(event);
        }}
      >
        {time && <span className="calendar-event-time">{time}</span>}
        <span className="calendar-event-title">{chip.title}</span>
      </div>
      {chip.resizable && chip.isEnd && <Edge chip={chip} day={day} edge="end" />}
    </div>
  );
});

/** A range's start or end edge: drag it (or Space, arrows, Space) to another day to move that end only. */
function Edge({ chip, day, edge }: { chip: DayChip; day: string; edge: 'start' | 'end' }) {
  const { t } = useLingui();
  const name = chip.title;
  const label = edge === 'start' ? t`Start of ${name}` : t`End of ${name}`;
  const data: ChipDragData = { type: 'calendar-event', itemId: chip.id, day, drag: edge, label };
  const { setNodeRef, listeners, attributes } = useDraggable({ id: `${chip.id}:${day}:${edge}`, data });
  return <span ref={setNodeRef} className={`calendar-edge is-${edge}`} {...attributes} {...listeners} aria-label={label} data-edge={edge} />;
}
