import { memo, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import FullCalendar from '@fullcalendar/react';
import dayGridPlugin from '@fullcalendar/daygrid';
import timeGridPlugin from '@fullcalendar/timegrid';
import interactionPlugin, { Draggable, type DateClickArg, type DropArg, type EventResizeDoneArg } from '@fullcalendar/interaction';
import type { DatesSetArg, EventClickArg, EventDropArg, LocaleInput } from '@fullcalendar/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { resolveViewSettings, type CalendarMode } from '../../../schema/views';
import { settingsOf } from '../../../schema/attributes';
import { useSession } from '../../api/session';
import { directionFor, weekStart } from '../../i18n/locale';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { toast } from '../../ui/toast-store';
import { useBoard } from '../BoardContext';
import { valueOfSpan, nowIn, type DateSpan } from '../model/date-spans';
import { memoFor, type PerItemMemo } from '../model/per-item-memo';
import { useChangeView, useMayChangeView } from '../parts/use-change-view';
import type { ViewProps } from '../parts/view-props';
import type { Item } from '../store/live';
import { useDragVisible } from '../parts/drag-visible';
import { calendarLocale, capPerDay, daysOf, durationOf, droppedSpan, eventOf, overlaps, resizedSpan, shownRange, valueForDay, type CalendarEvent } from './calendar-events';
import './calendar.css';

const LIBRARY_VIEW: Record<CalendarMode, string> = { month: 'dayGridMonth', week: 'timeGridWeek', day: 'timeGridDay' };
const MODE_OF: Record<string, CalendarMode> = { dayGridMonth: 'month', timeGridWeek: 'week', timeGridDay: 'day' };
/** Items a day shows in the month grid and the week's all-day row; the rest are behind "+N more" (the day view shows all). */
const PER_DAY = 3;
/**
 * The library's options that never change, made once: the library compares its options by
 * identity and re-processes all of them (and redraws) for any new one, so every prop it gets
 * is stable and only `events` changes with the data.
 */
const PLUGINS = [dayGridPlugin, timeGridPlugin, interactionPlugin];
const HEADER_TOOLBAR = { start: 'prev,next today', center: 'title', end: 'dayGridMonth,timeGridWeek,timeGridDay' };
const EVENT_ORDER = 'order,start,-duration,allDay,title';
// An all-day item stays in the all-day row and a timed one in the hours (no time is made up or lost).
const sameRow = (span: { allDay: boolean }, moving: { allDay: boolean } | null) => !moving || moving.allDay === span.allDay;
/**
 * The library's React wrapper hands it all its options again on every render of its parent, and
 * the library then redraws the whole grid even when none changed: a drop (whose render lays the
 * new date over the replica) or any other render of this view cost a full redraw of the month.
 * Memoised, it renders only when one of its (stable) props really changed.
 */
const Calendar = memo(FullCalendar);
/** The id prefix of a day's "+N more" marker (not an item: opens that day). */
const MORE = 'more:';
/** Each item's event, kept across opens (per attribute and words): an open or an edit re-derives only what changed. */
const eventMemos = new Map<string, PerItemMemo<CalendarEvent | null>>();

/**
 * Calendar view: month, week and day (FullCalendar, this chunk only; decision 0120). Items are
 * placed by the view's date or date-range attribute; dragging moves them, dragging an edge
 * resizes a range, a click on an empty day creates an item there, items without a date wait in
 * the side list (and can be dragged onto a day). Every edit is one BoardActions call (decision
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
  const [initialView] = useState(() => LIBRARY_VIEW[settings.mode]);
  const timeZone = profile?.timezone;
  const firstDay = weekStart(i18n.locale, profile?.start_of_week);
  // The shown dates are known before the library mounts (shownRange), so its first render has
  // the events; its own report (onDatesSet) corrects them if they ever differ.
  const [initialDate] = useState(() => nowIn(timeZone).slice(0, 10));
  const [range, setRange] = useState<{ from: string; to: string }>(() => shownRange(initialDate, settings.mode, firstDay));
  const sideList = useRef<HTMLUListElement>(null);
  const calendarRef = useRef<FullCalendar>(null);

  // A change of mode or attribute is saved in the view when this user may change it, else it stays local.
  const change = useChangeView(folder, view);
  const mayChangeView = useMayChangeView(folder, view);
  const saveSettings = (patch: Record<string, unknown>) => {
    if (mayChangeView) void change(patch);
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
  // events follow it in a deferred render: after a drop the library already shows the item where
  // it was dropped, and the save's answer is not kept waiting behind a pass over every item.
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
  // The library gets the events of the shown dates only, at most PER_DAY a day (and a "+N more"
  // marker), so a 10,000-item board opens as quickly as a small one. The same array while what
  // it holds is the same: a new one makes the library parse and redraw the whole grid (a quarter
  // of a second on a busy machine), and a drop changes the values three times (shown at once,
  // stored, the shown copy dropped) for one change on screen.
  const lastShown = useRef<{ text: string; events: (CalendarEvent & Record<string, unknown>)[] } | null>(null);
  const shownEvents = useMemo(() => {
    const { shown, more } = capPerDay(
      events.filter((e) => overlaps(e, range.from, range.to)),
      daysOf(range.from, range.to),
      mode === 'day' ? Number.POSITIVE_INFINITY : PER_DAY,
      mode !== 'month',
    );
    const out: (CalendarEvent & Record<string, unknown>)[] = shown.map((e) => {
      const item = byId.get(e.id);
      const editable = item ? canEdit(item) : false;
      // `order` 0: items before the day's marker (the library puts an event without it last).
      return { ...e, startEditable: editable, durationEditable: editable && attributeKind === 'date-range', extendedProps: { order: 0 } };
    });
    for (const [day, n] of more) out.push({ id: `${MORE}${day}`, title: t`+${n} more`, start: day, allDay: true, editable: false, classNames: ['calendar-more'], extendedProps: { order: 1 } });
    const text = JSON.stringify(out);
    if (lastShown.current?.text === text) return lastShown.current.events;
    lastShown.current = { text, events: out };
    return out;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [events, range, mode, byId, canEdit, attributeKind, t]);

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
  const itemOf = (id: string) => byId.get(id) ?? null;
  const expectChange = useDragVisible(get);

  const now = useCallback(() => nowIn(timeZone), [timeZone]);

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
  const onDateClick = (info: DateClickArg) => {
    if (!attribute || !canCreate) return;
    void addItem({ [attribute.id]: valueForDay(info.dateStr, attribute.kind, withTime) }).then((id) => id && board.openItem(id, folder.id));
  };
  // An undated item dragged from the side list onto a day gets that day.
  const onExternalDrop = (info: DropArg) => {
    const item = itemOf(info.draggedEl.dataset.itemId ?? '');
    if (!item || !attribute || !canEdit(item)) return;
    const day = valueForDay(info.dateStr, attribute.kind, withTime && !info.allDay);
    void board.actions.setValue(item, attribute, day).catch((error: Error) => toast.show(error.message, { kind: 'error' }));
  };
  useEffect(() => {
    if (!sideList.current || board.readOnly) return;
    const draggable = new Draggable(sideList.current, { itemSelector: '[data-item-id]', minDistance: 4, eventData: (el) => ({ title: el.textContent ?? '', create: false }) });
    return () => draggable.destroy();
  }, [board.readOnly, attribute?.id]);

  const onEventClick = (info: EventClickArg) => {
    info.jsEvent.preventDefault();
    // A day's "+N more" marker opens that day, where every item of it is shown.
    if (info.event.id.startsWith(MORE)) calendarRef.current?.getApi().changeView(LIBRARY_VIEW.day, info.event.id.slice(MORE.length));
    else board.openItem(info.event.id, folder.id);
  };

  const onDatesSet = (info: DatesSetArg) => {
    const next = { from: info.startStr.slice(0, 10), to: info.endStr.slice(0, 10) };
    setRange((current) => (current && current.from === next.from && current.to === next.to ? current : next));
    const shownMode = MODE_OF[info.view.type];
    if (shownMode && shownMode !== mode) {
      setMode(shownMode);
      if (shownMode !== settings.mode) saveSettings({ mode: shownMode });
    }
  };

  // Stable handlers that call the latest ones (a new function would make the library redraw).
  const latest = useRef({ onDatesSet, onDrop, onResize, onDateClick, onExternalDrop, onEventClick });
  latest.current = { onDatesSet, onDrop, onResize, onDateClick, onExternalDrop, onEventClick };
  const handlers = useMemo(
    () => ({
      datesSet: (info: DatesSetArg) => latest.current.onDatesSet(info),
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

  return (
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
        <Calendar
          ref={calendarRef}
          plugins={PLUGINS}
          initialView={initialView}
          initialDate={initialDate}
          headerToolbar={HEADER_TOOLBAR}
          locales={locales}
          locale={i18n.locale}
          direction={rtl ? 'rtl' : 'ltr'}
          firstDay={firstDay}
          timeZone="UTC"
          now={now}
          events={shownEvents}
          height={mode === 'month' ? 'auto' : 680}
          // Days are capped before the library sees them (capPerDay): its own limit would hide the markers.
          dayMaxEvents={false}
          eventOrder={EVENT_ORDER}
          editable={!board.readOnly}
          droppable={!board.readOnly}
          eventAllow={sameRow}
          {...handlers}
        />
      </div>
      <aside className="calendar-undated" aria-label={t`Items without a date`}>
        <h3 className="calendar-undated-title">
          <Trans>Without a date</Trans> <span className="calendar-undated-count">{undated.length}</span>
        </h3>
        <ul ref={sideList} className="calendar-undated-list">
          {undated.slice(0, 200).map((item) => (
            <li key={item.id} data-item-id={item.id} className={canEdit(item) ? 'is-draggable' : undefined}>
              <button type="button" className="calendar-undated-item" onClick={() => board.openItem(item.id, folder.id)}>
                {item.name?.trim() || untitled}
              </button>
            </li>
          ))}
        </ul>
        {undated.length > 200 && (
          <p className="calendar-undated-more">
            <Trans>and {undated.length - 200} more</Trans>
          </p>
        )}
      </aside>
    </div>
  );
}
