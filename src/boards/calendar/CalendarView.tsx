import { memo, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { useDraggable, type DragEndEvent, type DragMoveEvent, type DragStartEvent, type KeyboardCoordinateGetter } from '@dnd-kit/core';
import { addDays, addMonths, addWeeks, format } from 'date-fns';
import FullCalendar from '@fullcalendar/react';
import timeGridPlugin from '@fullcalendar/timegrid';
import interactionPlugin, { Draggable, type DateClickArg, type DropArg, type EventResizeDoneArg } from '@fullcalendar/interaction';
import type { EventClickArg, EventDropArg, LocaleInput } from '@fullcalendar/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { resolveViewSettings, type CalendarMode } from '../../../schema/views';
import { settingsOf } from '../../../schema/attributes';
import { useSession } from '../../api/session';
import { directionFor, weekStart } from '../../i18n/locale';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { DragArea } from '../../ui/drag/DragArea';
import { pointerNow } from '../../ui/drag/data';
import { inlineStep } from '../../ui/drag/direction';
import { toast } from '../../ui/toast-store';
import { useBoard } from '../BoardContext';
import { daysBetween, parseBoardDate, shiftDay, spanOf, valueOfSpan, nowIn, todayIn, type DateSpan } from '../model/date-spans';
import { memoFor, type PerItemMemo } from '../model/per-item-memo';
import { useChangeView, useMayChangeView } from '../parts/use-change-view';
import type { ViewProps } from '../parts/view-props';
import type { Item } from '../store/live';
import { useDragVisible } from '../parts/drag-visible';
import { calendarLocale, capPerDay, dayAt, daysOf, libraryOrder, durationOf, droppedSpan, eventOf, monthDays, overlaps, resizedSpan, shownRange, valueForDay, type CalendarEvent, type MonthDay, type ShownEvent } from './calendar-events';
import { MonthGrid, dateText, type ChipDragData } from './MonthGrid';
import './calendar.css';

const LIBRARY_VIEW: Record<CalendarMode, string> = { month: 'dayGridMonth', week: 'timeGridWeek', day: 'timeGridDay' };
const MODES: readonly CalendarMode[] = ['month', 'week', 'day'];
/** Items a day shows in the month grid and the week's all-day row; the rest are behind "+N more" (the day view shows all). */
const PER_DAY = 3;
/**
 * The library's options that never change, made once: the library compares its options by
 * identity and re-processes all of them (and redraws) for any new one, so every prop it gets
 * is stable and only `events` changes with the data. The month is our own grid (MonthGrid,
 * decision 0305); the library draws the week and the day, under our own toolbar.
 */
const PLUGINS = [timeGridPlugin, interactionPlugin];
const EVENT_ORDER = 'order,start,-duration,allDay,title';
// An all-day item stays in the all-day row and a timed one in the hours (no time is made up or lost).
const sameRow = (span: { allDay: boolean }, moving: { allDay: boolean } | null) => !moving || moving.allDay === span.allDay;
/**
 * The library's React wrapper hands it all its options again on every render of its parent, and
 * the library then redraws the whole grid even when none changed. Memoised, it renders only when
 * one of its (stable) props really changed.
 */
const Calendar = memo(FullCalendar);
/** The id prefix of a day's "+N more" marker in the week's all-day row (not an item: opens that day). */
const MORE = 'more:';
/** Each item's event, kept across opens (per attribute and words): an open or an edit re-derives only what changed. */
const eventMemos = new Map<string, PerItemMemo<CalendarEvent | null>>();
/** No droppables: the day under a month drag is read from the measured cells (dayAt). */
const noTargets = () => [];
/** An item just dropped in the month grid, shown at its new date until the deferred pass has it. */
interface Moved {
  event: CalendarEvent | null;
  /** The span before the drop (the deferred reader still answers it) and the span saved, as text (spanText). */
  before: string;
  value: string;
}
/** A value's span as text: what the reader answers compared with what was saved, whatever its normal form. */
const spanText = (value: unknown, kind: string) => {
  const span = spanOf(value, kind);
  return span ? `${span.start}/${span.end}` : '';
};

/** The day `step` pages from `day` in a mode (a month, a week or a day), as board text. */
function pageFrom(day: string, mode: CalendarMode, step: number): string {
  const date = parseBoardDate(day) ?? new Date();
  const next = mode === 'month' ? addMonths(date, step) : mode === 'week' ? addWeeks(date, step) : addDays(date, step);
  return format(next, 'yyyy-MM-dd');
}

/**
 * Calendar view: month, week and day. The month is our own grid (MonthGrid, dnd-kit drags:
 * decision 0305); week and day are FullCalendar's time grid in this chunk only (decision 0120).
 * Items are placed by the view's date or date-range attribute; dragging moves them, dragging an
 * edge resizes a range, a click on an empty day creates an item there, items without a date wait
 * in the side list (and can be dragged onto a day). Every edit is one BoardActions call (decision
 * 0100): optimistic, offline, undoable. Week start and "today" follow the user's profile.
 */
export default function CalendarView({ folder, view, items, get, valuesReady, canCreate, addItem }: ViewProps) {
  const { t, i18n } = useLingui();
  const board = useBoard();
  const session = useSession();
  const profile = session.status === 'signedIn' ? session.user : null;
  const settings = useMemo(() => resolveViewSettings('calendar', view.record?.settings, board.attributes), [view.record?.settings, board.attributes]);
  const attribute = board.attributes.find((a) => a.id === settings.date_attribute_id) ?? null;
  const dateAttributes = board.attributes.filter((a) => !a.deleted_at && (a.kind === 'date' || a.kind === 'date-range'));
  const withTime = attribute ? settingsOf(attribute.kind as 'date', attribute.settings).withTime : false;
  const [mode, setMode] = useState<CalendarMode>(settings.mode);
  const timeZone = profile?.timezone;
  const firstDay = weekStart(i18n.locale, profile?.start_of_week);
  const today = todayIn(timeZone);
  // The day the shown page holds; the shown dates follow from it (shownRange), before anything mounts.
  const [anchor, setAnchor] = useState(() => nowIn(timeZone).slice(0, 10));
  const range = useMemo(() => shownRange(anchor, mode, firstDay), [anchor, mode, firstDay]);
  const sideList = useRef<HTMLUListElement>(null);
  const calendarRef = useRef<FullCalendar>(null);
  const gridRef = useRef<HTMLTableElement>(null);

  // A change of mode or attribute is saved in the view when this user may change it, else it stays local.
  const change = useChangeView(folder, view);
  const mayChangeView = useMayChangeView(folder, view);
  const saveSettings = (patch: Record<string, unknown>) => {
    if (mayChangeView) void change(patch);
  };
  const changeMode = (next: CalendarMode, day?: string) => {
    if (day) setAnchor(day);
    if (next === mode) return;
    setMode(next);
    if (next !== settings.mode) saveSettings({ mode: next });
  };
  // The permission chain once per folder and creator, not per event and render.
  const canEdit = useMemo(() => {
    const known = new Map<string, boolean>();
    return (item: Item) => {
      const key = `${item.folder_id}\u0000${item.created_by ?? ''}`;
      let answer = known.get(key);
      if (answer === undefined) known.set(key, (answer = !board.readOnly && board.can('EDIT_ITEM', item.folder_id, item.created_by ?? null)));
      return answer;
    };
  }, [board]);

  const byId = useMemo(() => new Map(items.map((i) => [i.id, i])), [items]);
  const untitled = t`Untitled`;
  // `get` is the pane's reader, which holds this attribute's values (views/view-values.ts). The
  // events follow it in a deferred render, so a drop's own render is not kept waiting behind a
  // pass over every item: the month shows the dropped item from `moved` at once (below), the
  // library's week and day show it where it was dropped themselves.
  const deferredGet = useDeferredValue(get);
  const attributeId = attribute?.id;
  const attributeKind = attribute?.kind;
  const { events, undated } = useMemo(() => {
    const dated: CalendarEvent[] = [];
    const without: Item[] = [];
    if (!attributeId || !attributeKind || !valuesReady) return { events: dated, undated: without };
    const memo = memoFor(eventMemos, `${attributeId}\u0000${attributeKind}\u0000${untitled}`);
    for (const item of items) {
      const value = deferredGet(item.id, attributeId);
      const event = memo.get(item.id, value, item.name, () => eventOf(item, value, attributeKind, untitled));
      if (event) dated.push(event);
      else without.push(item);
    }
    return { events: dated, undated: without };
  }, [items, deferredGet, valuesReady, attributeId, attributeKind, untitled]);
  // The events of the shown dates, sorted in the library's order once (capPerDay sorts again: an
  // already sorted list costs it one comparison per event).
  const inRange = useMemo(() => events.filter((e) => overlaps(e, range.from, range.to)).sort(libraryOrder), [events, range]);
  // Drops in the month grid not yet in the deferred events: shown at their new dates in the
  // drop's own render (what the user sees is the saved value at once; DESIGN.md §8).
  const [moved, setMoved] = useState<ReadonlyMap<string, Moved>>(new Map());
  const liveMoves = useMemo(() => {
    const live: Moved[] = [];
    if (!attributeId || !attributeKind) return live;
    for (const [id, m] of moved) if (spanText(get(id, attributeId), attributeKind) === m.value && spanText(deferredGet(id, attributeId), attributeKind) === m.before) live.push(m);
    return live;
  }, [moved, get, deferredGet, attributeId, attributeKind]);
  useEffect(() => {
    // Forget drops the deferred events have caught up with (or that were undone or failed).
    if (liveMoves.length !== moved.size) setMoved((current) => new Map([...current].filter(([, m]) => liveMoves.includes(m))));
  }, [liveMoves, moved]);
  // The library (week, day) and the month grid get the events of the shown dates only, at most
  // PER_DAY a day (and a "+N more"), so a 10,000-item board opens as quickly as a small one. The
  // same array while what it holds is the same: a new one makes the library parse and redraw its
  // whole grid.
  const lastShown = useRef<{ text: string; events: ShownEvent[]; more: Map<string, number> } | null>(null);
  const shown = useMemo(() => {
    let list: CalendarEvent[] = inRange;
    if (liveMoves.length > 0) {
      const ids = new Set(liveMoves.map((m) => m.event?.id ?? ''));
      list = inRange.filter((e) => !ids.has(e.id));
      for (const m of liveMoves) if (m.event && overlaps(m.event, range.from, range.to)) list.push(m.event);
    }
    const { shown: capped, more } = capPerDay(list, daysOf(range.from, range.to), mode === 'day' ? Number.POSITIVE_INFINITY : PER_DAY, mode !== 'month');
    const out: ShownEvent[] = capped.map((e) => {
      const item = byId.get(e.id);
      const editable = item ? canEdit(item) : false;
      return { ...e, startEditable: editable, durationEditable: editable && attributeKind === 'date-range' };
    });
    const text = JSON.stringify([out, [...more]]);
    if (lastShown.current?.text === text) return lastShown.current;
    return (lastShown.current = { text, events: out, more });
  }, [inRange, liveMoves, range, mode, byId, canEdit, attributeKind]);
  // The library's events: `order` 0 puts items before a day's marker (it puts an event without it last).
  const libraryEvents = useMemo(() => {
    if (mode === 'month') return [];
    const out: Record<string, unknown>[] = shown.events.map((e) => ({ ...e, extendedProps: { order: 0 } }));
    for (const [day, n] of shown.more) out.push({ id: `${MORE}${day}`, title: t`+${n} more`, start: day, allDay: true, editable: false, classNames: ['calendar-more'], extendedProps: { order: 1 } });
    return out;
  }, [shown, mode, t]);
  // The month grid's days; a day keeps its identity while its content is the same, so a drop
  // re-renders the day it left and the day it reached.
  const lastDays = useRef(new Map<string, { text: string; day: MonthDay }>());
  const days = useMemo(() => {
    if (mode !== 'month') return [];
    const next = new Map<string, { text: string; day: MonthDay }>();
    const out = monthDays(shown.events, shown.more, daysOf(range.from, range.to)).map((d) => {
      const text = JSON.stringify(d);
      const old = lastDays.current.get(d.day);
      const day = old && old.text === text ? old.day : d;
      next.set(d.day, { text, day });
      return day;
    });
    lastDays.current = next;
    return out;
  }, [shown, mode, range]);

  const save = async (item: Item, span: DateSpan | null, revert?: () => void) => {
    if (!attribute || !span) return revert?.();
    const started = performance.now();
    expectChange(item.id, [attribute.id]);
    try {
      await board.actions.setValue(item, attribute, valueOfSpan(span, attribute.kind));
      // Read by bench/views-calendar-gantt.ts: from the drop to the worker having stored it.
      performance.measure('cairn:view-drag-saved', { start: started });
    } catch (error) {
      revert?.();
      toast.show((error as Error).message, { kind: 'error' });
    }
  };
  /** A month drop: shown at the new date in this render, then saved. */
  const saveShown = (item: Item, span: DateSpan | null) => {
    if (!attribute || !span) return;
    const value = valueOfSpan(span, attribute.kind);
    const entry: Moved = { event: eventOf(item, value, attribute.kind, untitled), before: spanText(get(item.id, attribute.id), attribute.kind), value: spanText(value, attribute.kind) };
    setMoved((current) => new Map(current).set(item.id, entry));
    void save(item, span);
  };
  const itemOf = (id: string) => byId.get(id) ?? null;
  const expectChange = useDragVisible(get);

  const now = useCallback(() => nowIn(timeZone), [timeZone]);

  // The library's week and day.
  const onDrop = (info: EventDropArg) => {
    const item = itemOf(info.event.id);
    if (!item || !attribute) return info.revert();
    void save(item, droppedSpan(get(item.id, attribute.id), attribute.kind, durationOf(info.delta)), info.revert);
  };
  const onResize = (info: EventResizeDoneArg) => {
    const item = itemOf(info.event.id);
    if (!item || !attribute) return info.revert();
    void save(item, resizedSpan(get(item.id, attribute.id), attribute.kind, durationOf(info.startDelta), durationOf(info.endDelta)), info.revert);
  };
  const create = (dateStr: string) => {
    if (!attribute || !canCreate) return;
    void addItem({ [attribute.id]: valueForDay(dateStr, attribute.kind, withTime) }).then((id) => id && board.openItem(id, folder.id));
  };
  const onDateClick = (info: DateClickArg) => create(info.dateStr);
  // An undated item dragged from the side list onto a day gets that day.
  const dropUndated = (item: Item, dateStr: string, allDay: boolean) => {
    if (!attribute || !canEdit(item)) return;
    const day = valueForDay(dateStr, attribute.kind, withTime && !allDay);
    void board.actions.setValue(item, attribute, day).catch((error: Error) => toast.show(error.message, { kind: 'error' }));
  };
  const onExternalDrop = (info: DropArg) => {
    const item = itemOf(info.draggedEl.dataset.itemId ?? '');
    if (item) dropUndated(item, info.dateStr, info.allDay);
  };
  // In the week and day the side list is the library's drag source; in the month, dnd-kit's (UndatedItem).
  useEffect(() => {
    if (!sideList.current || board.readOnly || mode === 'month') return;
    const draggable = new Draggable(sideList.current, { itemSelector: '[data-item-id]', minDistance: 4, eventData: (el) => ({ title: el.textContent ?? '', create: false }) });
    return () => draggable.destroy();
  }, [board.readOnly, attribute?.id, mode]);

  const onEventClick = (info: EventClickArg) => {
    info.jsEvent.preventDefault();
    // A day's "+N more" marker opens that day, where every item of it is shown.
    if (info.event.id.startsWith(MORE)) changeMode('day', info.event.id.slice(MORE.length));
    else board.openItem(info.event.id, folder.id);
  };
  // The library follows our toolbar's page (it has no toolbar of its own).
  useEffect(() => {
    const api = calendarRef.current?.getApi();
    if (api && api.getDate().toISOString().slice(0, 10) !== anchor) api.gotoDate(anchor);
  }, [anchor]);

  // Month drags (dnd-kit): the day under the pointer (or, from the keyboard, under the moved item's middle).
  const cells = useRef<{ day: string; left: number; top: number; right: number; bottom: number }[]>([]);
  const measureCells = () => {
    cells.current = [...(gridRef.current?.querySelectorAll<HTMLElement>('td[data-date]') ?? [])].map((el) => {
      const r = el.getBoundingClientRect();
      return { day: el.dataset.date!, left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    });
  };
  const [dragging, setDragging] = useState<{ itemId: string; overDay: string | null } | null>(null);
  /** When the last month drag ended: the click that follows a drag's release is not a click on the day. */
  const dragEndedAt = useRef(0);
  const dayUnder = (event: DragMoveEvent | DragEndEvent) => {
    const initial = event.active.rect.current.initial;
    const point = pointerNow(event.activatorEvent, event.delta) ?? (initial ? { x: initial.left + initial.width / 2 + event.delta.x, y: initial.top + initial.height / 2 + event.delta.y } : null);
    return point ? dayAt(cells.current, point.x, point.y) : null;
  };
  const dragOf = (event: { active: { data: { current?: unknown } } }) => event.active.data.current as (ChipDragData | { type: 'calendar-undated'; itemId: string }) | undefined;
  /** The day a keyboard drag is at (a day per ←/→, a week per ↑/↓), read at the drop rather than coordinates. */
  const keyDay = useRef<string | null>(null);
  const onDragStart = (event: DragStartEvent) => {
    const data = dragOf(event);
    measureCells();
    keyDay.current = data && data.type !== 'calendar-undated' ? (data as ChipDragData).day : null;
    if (data) setDragging({ itemId: data.itemId, overDay: null });
  };
  const onDragMove = (event: DragMoveEvent) => {
    const overDay = dayUnder(event);
    setDragging((current) => (current && current.overDay !== overDay ? { ...current, overDay } : current));
  };
  const onDragEnd = (event: DragEndEvent) => {
    setDragging(null);
    dragEndedAt.current = performance.now();
    const data = dragOf(event);
    const item = data ? itemOf(data.itemId) : null;
    // The cells as measured at the start: dnd-kit's delta counts the scrolling since, so the point is in that frame.
    const fromKeyboard = typeof KeyboardEvent !== 'undefined' && event.activatorEvent instanceof KeyboardEvent;
    const day = fromKeyboard && keyDay.current ? keyDay.current : dayUnder(event);
    if (!data || !item || !attribute || !day || !canEdit(item)) return;
    if (data.type === 'calendar-undated') {
      saveShown(item, { start: day, end: day, withTime: false });
      return;
    }
    const chip = data as ChipDragData;
    const days = daysBetween(chip.day, day);
    if (days === 0) return;
    const value = get(item.id, attribute.id);
    if (chip.drag === 'move') saveShown(item, droppedSpan(value, attribute.kind, { days }));
    else saveShown(item, resizedSpan(value, attribute.kind, chip.drag === 'start' ? { days } : {}, chip.drag === 'end' ? { days } : {}));
  };
  // The keyboard moves a picked-up item a day per ←/→ (physical: the grid mirrors in right to
  // left, where → is the day before) and a week per ↑/↓, within the shown weeks; the moved copy
  // follows from cell to cell.
  const keyboard: KeyboardCoordinateGetter = (event, { currentCoordinates }) => {
    const step = event.code === 'ArrowDown' ? 7 : event.code === 'ArrowUp' ? -7 : inlineStep(event.code, rtl);
    const from = keyDay.current;
    if (!step || !from) return undefined;
    const to = shiftDay(from, step);
    const a = cells.current.find((c) => c.day === from);
    const b = cells.current.find((c) => c.day === to);
    if (!a || !b) return undefined;
    keyDay.current = to;
    return { x: currentCoordinates.x + b.left - a.left, y: currentCoordinates.y + b.top - a.top };
  };
  const openItem = useCallback((id: string) => {
    if (performance.now() - dragEndedAt.current > 300) board.openItem(id, folder.id);
  }, [board, folder.id]);
  const latestMonth = useRef({ create, changeMode });
  latestMonth.current = { create, changeMode };
  const monthHandlers = useMemo(
    () => ({
      onMore: (day: string) => latestMonth.current.changeMode('day', day),
      onCreate: (day: string) => {
        if (performance.now() - dragEndedAt.current > 300) latestMonth.current.create(day);
      },
    }),
    [],
  );

  // Stable handlers that call the latest ones (a new function would make the library redraw).
  const latest = useRef({ onDrop, onResize, onDateClick, onExternalDrop, onEventClick });
  latest.current = { onDrop, onResize, onDateClick, onExternalDrop, onEventClick };
  const handlers = useMemo(
    () => ({
      eventDrop: (info: EventDropArg) => latest.current.onDrop(info),
      eventResize: (info: EventResizeDoneArg) => latest.current.onResize(info),
      dateClick: (info: DateClickArg) => latest.current.onDateClick(info),
      drop: (info: DropArg) => latest.current.onExternalDrop(info),
      eventClick: (info: EventClickArg) => latest.current.onEventClick(info),
    }),
    [],
  );

  // The page's direction follows the language (directionFor); the calendar follows the page.
  const rtl = directionFor(i18n.locale) === 'rtl';
  // The library's own words come from our catalogs; its dates from Intl in the user's language.
  const locale: LocaleInput = useMemo(
    () =>
      calendarLocale(i18n.locale, firstDay, rtl, {
        prev: t`Previous`,
        next: t`Next`,
        today: t`Today`,
        month: t`Month`,
        week: t`Week`,
        day: t`Day`,
        allDay: t`All day`,
        more: (n: number) => t`+${n} more`,
        noItems: t`No items`,
      }),
    [i18n.locale, firstDay, rtl, t],
  );
  const locales = useMemo(() => [locale], [locale]);

  if (!attribute) {
    const canAdd = !board.readOnly && board.can('MANAGE_ATTRIBUTES', board.boardId);
    return (
      <EmptyState
        headingLevel={3}
        title={<Trans>This calendar needs a date.</Trans>}
        text={<Trans>Add a date or date range attribute to the board to place its items on the calendar.</Trans>}
        action={canAdd ? <Button onClick={() => void board.actions.createAttribute({ name: t`Date`, kind: 'date' }, board.attributes)}><Trans>Add a date attribute</Trans></Button> : undefined}
      />
    );
  }

  const lastDay = daysOf(range.from, range.to).at(-1) ?? range.from;
  const title =
    mode === 'month'
      ? dateText(i18n.locale, anchor, { month: 'long', year: 'numeric' })
      : mode === 'week'
        ? `${dateText(i18n.locale, range.from, { day: 'numeric', month: 'short' })} – ${dateText(i18n.locale, lastDay, { day: 'numeric', month: 'short', year: 'numeric' })}`
        : dateText(i18n.locale, anchor, { dateStyle: 'full' });
  const modeName: Record<CalendarMode, string> = { month: t`Month`, week: t`Week`, day: t`Day` };
  const monthDrag = mode === 'month' && !board.readOnly;

  return (
    <DragArea collision={noTargets} keyboard={keyboard} onDragStart={onDragStart} onDragMove={onDragMove} onDragEnd={onDragEnd} onDragCancel={() => setDragging(null)}>
      <div className="calendar-view" data-testid="calendar-view">
        <div className="calendar-main">
          <label className="calendar-attribute">
            <span><Trans>Dates from</Trans></span>
            <select value={attribute.id} onChange={(e) => saveSettings({ date_attribute_id: e.target.value })} disabled={!mayChangeView}>
              {dateAttributes.map((a) => (
                <option key={a.id} value={a.id}>{a.name}</option>
              ))}
            </select>
          </label>
          <div className="calendar-toolbar">
            <div className="calendar-toolbar-group">
              <button type="button" className="calendar-nav" onClick={() => setAnchor((a) => pageFrom(a, mode, -1))} aria-label={t`Previous`}>
                <span aria-hidden="true">{rtl ? '›' : '‹'}</span>
              </button>
              <button type="button" className="calendar-nav" onClick={() => setAnchor((a) => pageFrom(a, mode, 1))} aria-label={t`Next`}>
                <span aria-hidden="true">{rtl ? '‹' : '›'}</span>
              </button>
              <button type="button" className="calendar-today" onClick={() => setAnchor(today)} disabled={range.from <= today && today < range.to}>
                <Trans>Today</Trans>
              </button>
            </div>
            <h3 className="calendar-title" aria-live="polite">{title}</h3>
            <div className="calendar-toolbar-group" role="group" aria-label={t`View`}>
              {MODES.map((m) => (
                <button key={m} type="button" className="calendar-mode" aria-pressed={m === mode} onClick={() => changeMode(m)}>
                  {modeName[m]}
                </button>
              ))}
            </div>
          </div>
          {mode === 'month' ? (
            <MonthGrid
              gridRef={gridRef}
              days={days}
              month={anchor.slice(0, 7)}
              today={today}
              locale={i18n.locale}
              overDay={dragging?.overDay ?? null}
              dragging={dragging?.itemId ?? null}
              canCreate={canCreate}
              onOpen={openItem}
              onMore={monthHandlers.onMore}
              onCreate={monthHandlers.onCreate}
            />
          ) : (
            <Calendar
              key={mode}
              ref={calendarRef}
              plugins={PLUGINS}
              initialView={LIBRARY_VIEW[mode]}
              initialDate={anchor}
              headerToolbar={false}
              locales={locales}
              locale={i18n.locale}
              direction={rtl ? 'rtl' : 'ltr'}
              firstDay={firstDay}
              timeZone="UTC"
              now={now}
              events={libraryEvents}
              height={680}
              // Days are capped before the library sees them (capPerDay): its own limit would hide the markers.
              dayMaxEvents={false}
              eventOrder={EVENT_ORDER}
              editable={!board.readOnly}
              droppable={!board.readOnly}
              eventAllow={sameRow}
              {...handlers}
            />
          )}
        </div>
        <aside className="calendar-undated" aria-label={t`Items without a date`}>
          <h3 className="calendar-undated-title">
            <Trans>Without a date</Trans> <span className="calendar-undated-count">{undated.length}</span>
          </h3>
          <ul ref={sideList} className="calendar-undated-list">
            {undated.slice(0, 200).map((item) => (
              <UndatedItem key={item.id} item={item} name={item.name?.trim() || untitled} editable={canEdit(item)} monthDrag={monthDrag} onOpen={openItem} />
            ))}
          </ul>
          {undated.length > 200 && (
            <p className="calendar-undated-more">
              <Trans>and {undated.length - 200} more</Trans>
            </p>
          )}
        </aside>
      </div>
    </DragArea>
  );
}

/**
 * An item without a date in the side list: opens on a click; dragged onto a day, it gets that
 * day (in the month by dnd-kit, this button being the handle; in the week and day by the
 * library's Draggable over the list, which reads `data-item-id`).
 */
const UndatedItem = memo(function UndatedItem({ item, name, editable, monthDrag, onOpen }: { item: Item; name: string; editable: boolean; monthDrag: boolean; onOpen(id: string): void }) {
  const { setNodeRef, listeners, attributes } = useDraggable({ id: `undated:${item.id}`, data: { type: 'calendar-undated', itemId: item.id, label: name }, disabled: !(editable && monthDrag) });
  return (
    <li data-item-id={item.id} className={editable ? 'is-draggable' : undefined}>
      {/* Not a <button>: Space picks it up in the month (dnd-kit), and a button's own Space would open it on release. */}
      <div
        ref={setNodeRef}
        role="button"
        tabIndex={0}
        className="calendar-undated-item"
        {...(editable && monthDrag ? attributes : {})}
        {...(editable && monthDrag ? listeners : {})}
        onClick={() => onOpen(item.id)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') onOpen(item.id);
          else if (editable && monthDrag) listeners?.onKeyDown?.(event);
        }}
      >
        {name}
      </div>
    </li>
  );
});
