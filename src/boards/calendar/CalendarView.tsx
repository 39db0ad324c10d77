import { useEffect, useMemo, useRef, useState } from 'react';
import FullCalendar from '@fullcalendar/react';
import dayGridPlugin from '@fullcalendar/daygrid';
import timeGridPlugin from '@fullcalendar/timegrid';
import interactionPlugin, { Draggable, type DateClickArg, type DropArg, type EventResizeDoneArg } from '@fullcalendar/interaction';
import type { DatesSetArg, EventClickArg, EventDropArg, LocaleInput } from '@fullcalendar/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { canChangeView, resolveViewSettings, type CalendarMode } from '../../../schema/views';
import { settingsOf } from '../../../schema/attributes';
import { useSession } from '../../api/session';
import { directionFor, weekStart } from '../../i18n/locale';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { toast } from '../../ui/toast-store';
import { useBoard } from '../BoardContext';
import { valueOfSpan, nowIn, type DateSpan } from '../model/date-spans';
import type { ViewProps } from '../parts/view-props';
import { useAttributeValues, type Item } from '../store/live';
import { calendarLocale, durationOf, droppedSpan, eventOf, overlaps, resizedSpan, valueForDay, type CalendarEvent } from './calendar-events';
import './calendar.css';

const LIBRARY_VIEW: Record<CalendarMode, string> = { month: 'dayGridMonth', week: 'timeGridWeek', day: 'timeGridDay' };
const MODE_OF: Record<string, CalendarMode> = { dayGridMonth: 'month', timeGridWeek: 'week', timeGridDay: 'day' };

/**
 * Calendar view: month, week and day (FullCalendar, this chunk only; decision 0120). Items are
 * placed by the view's date or date-range attribute; dragging moves them, dragging an edge
 * resizes a range, a click on an empty day creates an item there, items without a date wait in
 * the side list (and can be dragged onto a day). Every edit is one BoardActions call (decision
 * 0100): optimistic, offline, undoable. Week start and "today" follow the user's profile.
 */
export default function CalendarView({ folder, view, items, canCreate, addItem }: ViewProps) {
  const { t, i18n } = useLingui();
  const board = useBoard();
  const session = useSession();
  const profile = session.status === 'signedIn' ? session.user : null;
  const settings = useMemo(() => resolveViewSettings('calendar', view.record?.settings, board.attributes), [view.record?.settings, board.attributes]);
  const attribute = board.attributes.find((a) => a.id === settings.date_attribute_id) ?? null;
  const dateAttributes = board.attributes.filter((a) => !a.deleted_at && (a.kind === 'date' || a.kind === 'date-range'));
  const withTime = attribute ? settingsOf(attribute.kind as 'date', attribute.settings).withTime : false;
  const values = useAttributeValues(attribute ? [attribute.id] : []);
  const [range, setRange] = useState<{ from: string; to: string } | null>(null);
  const [mode, setMode] = useState<CalendarMode>(settings.mode);
  const sideList = useRef<HTMLUListElement>(null);

  const actor = {
    userId: board.backend.userId,
    isWorkspaceOwner: board.info?.viewer.role === 'owner',
    canEditLocked: board.can('EDIT_LOCKED_VIEWS', folder.id),
    canCustomize: board.can('CUSTOMIZE_VIEW', folder.id),
  };
  const mayChangeView = !board.readOnly && view.record !== null && canChangeView(view.record, actor);
  const saveSettings = (patch: Record<string, unknown>) => {
    if (mayChangeView && view.record) void board.actions.updateViewSettings(view.record, patch);
  };
  const canEdit = (item: Item) => !board.readOnly && board.can('EDIT_ITEM', item.folder_id, item.created_by ?? null);

  const byId = useMemo(() => new Map(items.map((i) => [i.id, i])), [items]);
  const untitled = t`Untitled`;
  const { events, undated } = useMemo(() => {
    const dated: CalendarEvent[] = [];
    const without: Item[] = [];
    if (!attribute) return { events: dated, undated: without };
    for (const item of items) {
      const event = eventOf(item, values?.get(`${item.id}.${attribute.id}`), attribute.kind, untitled);
      if (event) dated.push(event);
      else without.push(item);
    }
    return { events: dated, undated: without };
  }, [items, values, attribute, untitled]);
  // The library gets the events of the shown dates only: a 10,000-item board stays quick.
  const shownEvents = useMemo(
    () =>
      (range ? events.filter((e) => overlaps(e, range.from, range.to)) : []).map((e) => {
        const item = byId.get(e.id);
        const editable = item ? canEdit(item) : false;
        return { ...e, startEditable: editable, durationEditable: editable && attribute?.kind === 'date-range' };
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [events, range, byId, attribute?.kind],
  );

  const save = async (item: Item, span: DateSpan | null, revert?: () => void) => {
    if (!attribute || !span) return revert?.();
    const started = performance.now();
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

  const onDrop = (info: EventDropArg) => {
    const item = itemOf(info.event.id);
    if (!item || !attribute) return info.revert();
    void save(item, droppedSpan(values?.get(`${item.id}.${attribute.id}`), attribute.kind, durationOf(info.delta)), info.revert);
  };
  const onResize = (info: EventResizeDoneArg) => {
    const item = itemOf(info.event.id);
    if (!item || !attribute) return info.revert();
    void save(item, resizedSpan(values?.get(`${item.id}.${attribute.id}`), attribute.kind, durationOf(info.startDelta), durationOf(info.endDelta)), info.revert);
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

  const onDatesSet = (info: DatesSetArg) => {
    const next = { from: info.startStr.slice(0, 10), to: info.endStr.slice(0, 10) };
    setRange((current) => (current && current.from === next.from && current.to === next.to ? current : next));
    const shownMode = MODE_OF[info.view.type];
    if (shownMode && shownMode !== mode) {
      setMode(shownMode);
      if (shownMode !== settings.mode) saveSettings({ mode: shownMode });
    }
  };

  // The page's direction follows the language (directionFor); the calendar follows the page.
  const rtl = directionFor(i18n.locale) === 'rtl';
  const firstDay = weekStart(i18n.locale, profile?.start_of_week);
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
        <FullCalendar
          plugins={[dayGridPlugin, timeGridPlugin, interactionPlugin]}
          initialView={LIBRARY_VIEW[mode]}
          headerToolbar={{ start: 'prev,next today', center: 'title', end: 'dayGridMonth,timeGridWeek,timeGridDay' }}
          locales={[locale]}
          locale={i18n.locale}
          direction={rtl ? 'rtl' : 'ltr'}
          firstDay={firstDay}
          timeZone="UTC"
          now={() => nowIn(profile?.timezone)}
          events={shownEvents}
          height={mode === 'month' ? 'auto' : 680}
          dayMaxEvents
          editable={!board.readOnly}
          droppable={!board.readOnly}
          // An all-day item stays in the all-day row and a timed one in the hours (no time is made up or lost).
          eventAllow={(span, moving) => !moving || moving.allDay === span.allDay}
          datesSet={onDatesSet}
          eventDrop={onDrop}
          eventResize={onResize}
          dateClick={onDateClick}
          drop={onExternalDrop}
          eventClick={(info: EventClickArg) => {
            info.jsEvent.preventDefault();
            board.openItem(info.event.id, folder.id);
          }}
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
