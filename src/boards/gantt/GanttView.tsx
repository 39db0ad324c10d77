import { memo, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import type { DragEndEvent, DragMoveEvent, DragStartEvent, KeyboardCoordinateGetter } from '@dnd-kit/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Trans, useLingui } from '@lingui/react/macro';
import { GANTT_ZOOMS, resolveViewSettings, type GanttZoom } from '../../../schema/views';
import { useSession } from '../../api/session';
import { weekStart } from '../../i18n/locale';
import { EmptyState } from '../../ui/EmptyState';
import { DragArea } from '../../ui/drag/DragArea';
import { pageIsRtl } from '../../ui/drag/direction';
import { toast } from '../../ui/toast-store';
import { useBoard } from '../BoardContext';
import { todayIn, type DateSpan } from '../model/date-spans';
import type { Group } from '../model/query';
import { memoFor, type PerItemMemo } from '../model/per-item-memo';
import { useDragVisible } from '../parts/drag-visible';
import { useChangeView, useMayChangeView } from '../parts/use-change-view';
import type { ViewProps } from '../parts/view-props';
import type { Item } from '../store/live';
import { useGroupedRows } from '../table/use-grouped-rows';
import { GanttBar, type BarDragData } from './GanttBar';
import { barSpanOf, ganttSourceOf, sourceAttributeIds, valuesOfSpan } from './gantt-spans';
import { barOf, dayDelta, draggedSpan, isInWindow, offsetOf, ticksOf, timelineFor, timelineWidth, type BarDrag, type Tick, type Timeline } from './timeline';
import './gantt.css';

const ROW_HEIGHT = 36;
const HEADER_HEIGHT = 40;
const NAME_WIDTH = 240;
/** No droppables: a bar's drag is read from its distance, not from a target. */
const noTargets = () => [];
/** Each item's bar, kept across opens (per source): an open or an edit re-derives only what changed. */
const spanMemos = new Map<string, PerItemMemo<DateSpan | null>>();
/** Date formatters by language and options (making one costs more than formatting with it). */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}\u0000${JSON.stringify(options)}`;
  let format = formatters.get(key);
  if (!format) formatters.set(key, (format = new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' })));
  return format;
}

interface Preview {
  itemId: string;
  drag: BarDrag;
  days: number;
}

/**
 * Gantt view: a row per item (grouped like the Table), its bar from a date-range attribute or
 * start + end dates, drag to move or resize (dnd-kit, decision 0104), zoom day / week / month /
 * quarter, a today line, and both axes virtualised: only the rows and ticks on screen are drawn,
 * and only the bars crossing the visible window. Edits are BoardActions (decision 0100).
 */
export default function GanttView({ folder, view, items, get, valuesReady }: ViewProps) {
  const { t, i18n } = useLingui();
  const board = useBoard();
  const session = useSession();
  const profile = session.status === 'signedIn' ? session.user : null;
  const settings = useMemo(() => resolveViewSettings('gantt', view.record?.settings, board.attributes), [view.record?.settings, board.attributes]);
  const source = ganttSourceOf(settings);
  const sourceIds = sourceAttributeIds(source);
  const [zoom, setZoom] = useState<GanttZoom>(settings.zoom);
  useEffect(() => setZoom(settings.zoom), [settings.zoom]);
  const [preview, setPreview] = useState<Preview | null>(null);
  const rtl = pageIsRtl();
  const today = todayIn(profile?.timezone);
  const firstDay = weekStart(i18n.locale, profile?.start_of_week);

  // A change of zoom or source is saved in the view when this user may change it, else it stays local.
  const change = useChangeView(folder, view);
  const mayChangeView = useMayChangeView(folder, view);
  const saveSettings = (patch: Record<string, unknown>) => {
    if (mayChangeView) void change(patch);
  };

  // Each item's bar from the pane's reader (`get` holds the source's values: views/view-values.ts),
  // worked out again only for an item whose values changed (PerItemMemo).
  const sourceKey = sourceIds.join('|');
  const spanOf = useMemo(() => {
    if (!valuesReady || !source) return (_itemId: string): DateSpan | null => null;
    const memo = memoFor(spanMemos, `${source.kind}\u0000${sourceKey}`);
    const [first, second] = sourceIds;
    return (itemId: string): DateSpan | null => {
      const a = get(itemId, first!);
      const b = second === undefined ? undefined : get(itemId, second);
      return memo.get(itemId, a, b, () => barSpanOf(source, (attributeId) => get(itemId, attributeId)));
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [get, valuesReady, sourceKey]);
  // The rows on screen read their bar through `spanOf` at once; the timeline's extent needs every
  // item's bar. It is worked out in a deferred render when the items or the zoom change, and when
  // only the bars changed (an edit, the values arriving, another source) once the frame showing
  // them has begun: as a deferred render it often ran before that frame and held it back behind
  // a pass over 10,000 items (drag → visible, issue #12, decision 0305).
  const extentOf = (read: (itemId: string) => DateSpan | null, list: readonly Item[]) => {
    function* all() {
      for (const item of list) {
        const span = read(item.id);
        if (span) yield span;
      }
    }
    return timelineFor(all(), today, zoom, firstDay);
  };
  const deferredItems = useDeferredValue(items);
  const latestSpanOf = useRef(spanOf);
  latestSpanOf.current = spanOf;
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const baseExtent = useMemo(() => extentOf(latestSpanOf.current, deferredItems), [deferredItems, today, zoom, firstDay]);
  const [edited, setEdited] = useState<{ base: Timeline; extent: Timeline } | null>(null);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        const next = extentOf(latestSpanOf.current, deferredItems);
        const same = (a: Timeline) => a.origin === next.origin && a.days === next.days;
        setEdited((current) => (current?.base === baseExtent && same(current.extent) ? current : same(baseExtent) ? null : { base: baseExtent, extent: next }));
      }, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [spanOf, baseExtent]);
  const extent = edited && edited.base === baseExtent ? edited.extent : baseExtent;
  // The same timeline object while its extent is the same: an edit inside it does not redo the ticks.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const timeline = useMemo(() => extent, [extent.origin, extent.days, extent.dayWidth, extent.zoom, extent.weekStartsOn]);
  const ticks = useMemo(() => ticksOf(timeline), [timeline]);

  const groupAttribute = view.settings.group_by ? board.attributes.find((a) => a.id === view.settings.group_by) : undefined;
  // Regrouping after an edit of the grouping value follows in the deferred render too.
  const groupGet = useDeferredValue(get);
  const grouped = useGroupedRows(items, groupAttribute, groupGet, { hideEmptyGroups: view.settings.hide_empty_groups, groupOrder: view.settings.group_order });

  const scrollRef = useRef<HTMLDivElement>(null);
  const rows = useVirtualizer({ count: grouped.rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 10 });
  const cols = useVirtualizer({
    horizontal: true,
    isRtl: rtl,
    count: ticks.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => ticks[i]!.width,
    paddingStart: NAME_WIDTH,
    overscan: 4,
  });
  useEffect(() => cols.measure(), [ticks, cols]);
  const virtualTicks = cols.getVirtualItems();
  const windowFrom = virtualTicks.length ? ticks[virtualTicks[0]!.index]!.offset : 0;
  const lastTick = virtualTicks.length ? ticks[virtualTicks[virtualTicks.length - 1]!.index]! : null;
  const windowTo = lastTick ? lastTick.offset + lastTick.width : 0;

  // Opening (and a new zoom) shows today near the start.
  const scrollToToday = useCallback(() => cols.scrollToOffset(Math.max(0, offsetOf(today, timeline) - 4 * timeline.dayWidth - 80)), [cols, today, timeline]);
  useEffect(() => {
    scrollToToday();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [zoom, timeline.origin]);

  // The permission chain once per folder and creator, not per row and render.
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
  const openItem = useCallback((id: string) => board.openItem(id, folder.id), [board, folder.id]);
  const expectChange = useDragVisible(get);

  const save = async (item: Item, span: DateSpan) => {
    if (!source) return;
    const started = performance.now();
    const entries = Object.entries(valuesOfSpan(source, span)).map(([id, value]) => ({ attribute: board.attributes.find((a) => a.id === id)!, value }));
    expectChange(item.id, entries.map((e) => e.attribute.id));
    try {
      if (entries.length === 1) await board.actions.setValue(item, entries[0]!.attribute, entries[0]!.value);
      else await board.actions.setItemValues(item, entries, 'move bar');
      // Read by bench/views-calendar-gantt.ts: from the drop to the worker having stored it.
      performance.measure('cairn:view-drag-saved', { start: started });
    } catch (error) {
      toast.show((error as Error).message, { kind: 'error' });
    }
  };

  const dataOf = (event: { active: { data: { current?: unknown } } }) => event.active.data.current as BarDragData | undefined;
  const onDragStart = (event: DragStartEvent) => {
    const data = dataOf(event);
    if (data) setPreview({ itemId: data.itemId, drag: data.drag, days: 0 });
  };
  const onDragMove = (event: DragMoveEvent) => {
    const data = dataOf(event);
    if (!data) return;
    const days = dayDelta(event.delta.x, timeline.dayWidth, rtl);
    setPreview((current) => (current && current.days === days && current.itemId === data.itemId ? current : { itemId: data.itemId, drag: data.drag, days }));
  };
  const onDragEnd = (event: DragEndEvent) => {
    setPreview(null);
    const data = dataOf(event);
    const item = data ? byId.get(data.itemId) : undefined;
    const span = item ? spanOf(item.id) : null;
    if (!data || !item || !span) return;
    const days = dayDelta(event.delta.x, timeline.dayWidth, rtl);
    if (days !== 0) void save(item, draggedSpan(span, data.drag, days));
  };
  // The keyboard moves a picked-up bar by one day per arrow press.
  const keyboard: KeyboardCoordinateGetter = (event, { currentCoordinates }) => {
    if (event.code === 'ArrowRight') return { ...currentCoordinates, x: currentCoordinates.x + timeline.dayWidth };
    if (event.code === 'ArrowLeft') return { ...currentCoordinates, x: currentCoordinates.x - timeline.dayWidth };
    return undefined;
  };

  const dateText = useCallback((day: string, options: Intl.DateTimeFormatOptions) => formatterFor(i18n.locale, options).format(new Date(`${day.slice(0, 10)}T00:00:00Z`)), [i18n.locale]);
  const whenOf = useCallback((span: DateSpan) => (span.start === span.end ? dateText(span.start, { dateStyle: 'medium' }) : `${dateText(span.start, { dateStyle: 'medium' })} – ${dateText(span.end, { dateStyle: 'medium' })}`), [dateText]);
  const tickLabel = (tick: Tick) => {
    if (zoom === 'day') return dateText(tick.day, { day: 'numeric', weekday: 'narrow' });
    if (zoom === 'week') return dateText(tick.day, { day: 'numeric', month: 'short' });
    if (zoom === 'month') return dateText(tick.day, { month: 'short', year: 'numeric' });
    const quarter = Math.floor(Number(tick.day.slice(5, 7)) / 3) + 1;
    const year = dateText(tick.day, { year: 'numeric' });
    return t`Q${quarter} ${year}`;
  };

  const rangeAttributes = board.attributes.filter((a) => !a.deleted_at && a.kind === 'date-range');
  const dateAttributes = board.attributes.filter((a) => !a.deleted_at && a.kind === 'date');
  const zoomNames: Record<GanttZoom, string> = { day: t`Day`, week: t`Week`, month: t`Month`, quarter: t`Quarter` };

  if (!source) {
    return <EmptyState headingLevel={3} title={<Trans>This Gantt needs dates.</Trans>} text={<Trans>Add a date range attribute, or start and end date attributes, to the board to draw its items as bars.</Trans>} />;
  }

  const width = NAME_WIDTH + timelineWidth(timeline);
  const height = HEADER_HEIGHT + rows.getTotalSize();
  const todayOffset = offsetOf(today, timeline) + timeline.dayWidth / 2;
  const shownPreview = preview && preview.days !== 0 ? preview : null;

  return (
    <div className="gantt-view" data-testid="gantt-view">
      <div className="gantt-toolbar">
        <div className="gantt-zoom" role="group" aria-label={t`Zoom`}>
          {GANTT_ZOOMS.map((z) => (
            <button key={z} type="button" aria-pressed={zoom === z} onClick={() => (setZoom(z), z !== settings.zoom && saveSettings({ zoom: z }))}>
              {zoomNames[z]}
            </button>
          ))}
        </div>
        <button type="button" className="gantt-today-button" onClick={scrollToToday}>
          <Trans>Today</Trans>
        </button>
        <label className="gantt-source">
          <span><Trans>Bars from</Trans></span>
          <select
            disabled={!mayChangeView}
            value={source.kind === 'range' ? source.rangeId : 'dates'}
            onChange={(e) => saveSettings(e.target.value === 'dates' ? { range_attribute_id: null, start_attribute_id: dateAttributes[0]?.id ?? null, end_attribute_id: (dateAttributes[1] ?? dateAttributes[0])?.id ?? null } : { range_attribute_id: e.target.value })}
          >
            {rangeAttributes.map((a) => (
              <option key={a.id} value={a.id}>{a.name}</option>
            ))}
            {dateAttributes.length > 0 && <option value="dates">{t`Start and end dates`}</option>}
          </select>
        </label>
        {source.kind === 'dates' && (
          <>
            <select aria-label={t`Start date`} disabled={!mayChangeView} value={source.startId} onChange={(e) => saveSettings({ range_attribute_id: null, start_attribute_id: e.target.value, end_attribute_id: source.endId })}>
              {dateAttributes.map((a) => <option key={a.id} value={a.id}>{a.name}</option>)}
            </select>
            <select aria-label={t`End date`} disabled={!mayChangeView} value={source.endId} onChange={(e) => saveSettings({ range_attribute_id: null, start_attribute_id: source.startId, end_attribute_id: e.target.value })}>
              {dateAttributes.map((a) => <option key={a.id} value={a.id}>{a.name}</option>)}
            </select>
          </>
        )}
      </div>
      <DragArea collision={noTargets} keyboard={keyboard} onDragStart={onDragStart} onDragMove={onDragMove} onDragEnd={onDragEnd} onDragCancel={() => setPreview(null)}>
        <div ref={scrollRef} className="gantt-scroll" role="grid" aria-label={t`Gantt`} aria-rowcount={grouped.rows.length}>
          <div className="gantt-canvas" style={{ inlineSize: width, blockSize: height }}>
            <div className="gantt-header" style={{ inlineSize: width, blockSize: HEADER_HEIGHT }}>
              <div className="gantt-name-head"><Trans>Item</Trans></div>
              {virtualTicks.map((vt) => {
                const tick = ticks[vt.index]!;
                return (
                  <div key={tick.day} className={`gantt-tick${tick.day === today ? ' is-today' : ''}`} style={{ insetInlineStart: NAME_WIDTH + tick.offset, inlineSize: tick.width }}>
                    {tick.width >= 24 ? tickLabel(tick) : null}
                  </div>
                );
              })}
            </div>
            {virtualTicks.map((vt) => {
              const tick = ticks[vt.index]!;
              return <div key={`line-${tick.day}`} className="gantt-gridline" style={{ insetInlineStart: NAME_WIDTH + tick.offset, blockSize: height }} aria-hidden="true" />;
            })}
            {todayOffset >= windowFrom && todayOffset <= windowTo && (
              <div className="gantt-today" style={{ insetInlineStart: NAME_WIDTH + todayOffset, blockSize: height }} title={t`Today`} aria-hidden="true" data-testid="gantt-today" />
            )}
            {rows.getVirtualItems().map((vr) => {
              const row = grouped.rows[vr.index]!;
              const top = HEADER_HEIGHT + vr.start;
              if (row.kind === 'group') return <GanttGroupRow key={`g-${row.group.key}`} group={row.group} top={top} width={width} collapsed={grouped.isCollapsed(row.group.key)} onToggle={grouped.toggleGroup} />;
              const item = row.item;
              const stored = spanOf(item.id);
              const span = stored && shownPreview?.itemId === item.id ? draggedSpan(stored, shownPreview.drag, shownPreview.days) : stored;
              const bar = span ? barOf(span, timeline) : null;
              return (
                <GanttItemRow
                  key={item.id}
                  item={item}
                  top={top}
                  width={width}
                  rowIndex={vr.index}
                  bar={bar && (isInWindow(bar, windowFrom, windowTo) || preview?.itemId === item.id) ? bar : null}
                  when={span ? whenOf(span) : ''}
                  editable={canEdit(item)}
                  resizable={source.kind === 'range' || source.startId !== source.endId}
                  dragging={preview?.itemId === item.id}
                  untitled={t`Untitled`}
                  onOpen={openItem}
                />
              );
            })}
          </div>
        </div>
      </DragArea>
      <p className="visually-hidden" aria-live="polite">
        {shownPreview && spanOf(shownPreview.itemId) ? whenOf(draggedSpan(spanOf(shownPreview.itemId)!, shownPreview.drag, shownPreview.days)) : ''}
      </p>
    </div>
  );
}

const GanttGroupRow = memo(function GanttGroupRow({ group, top, width, collapsed, onToggle }: { group: Group<Item>; top: number; width: number; collapsed: boolean; onToggle(key: string): void }) {
  const { t } = useLingui();
  return (
    <div role="row" className="gantt-group-row" style={{ top, blockSize: ROW_HEIGHT, inlineSize: width }} data-group-key={group.key}>
      <div role="rowheader" className="gantt-name">
        <button type="button" aria-expanded={!collapsed} onClick={() => onToggle(group.key)}>
          {collapsed ? '▸' : '▾'}
        </button>
        {group.option ? (
          <span className="label-chip" style={{ background: group.option.color, color: group.option.textColor }}>{group.option.name}</span>
        ) : (
          <span>{group.title || t`Empty`}</span>
        )}
        <span className="group-count">{group.items.length}</span>
      </div>
    </div>
  );
});

interface ItemRowProps {
  item: Item;
  top: number;
  width: number;
  rowIndex: number;
  bar: { offset: number; width: number } | null;
  when: string;
  editable: boolean;
  resizable: boolean;
  dragging: boolean;
  untitled: string;
  onOpen(itemId: string): void;
}

const GanttItemRow = memo(function GanttItemRow({ item, top, width, rowIndex, bar, when, editable, resizable, dragging, untitled, onOpen }: ItemRowProps) {
  const name = item.name?.trim() || untitled;
  return (
    <div role="row" className="gantt-row" style={{ top, blockSize: ROW_HEIGHT, inlineSize: width }} aria-rowindex={rowIndex + 1} data-item-id={item.id}>
      <div role="rowheader" className="gantt-name">
        <button type="button" className="gantt-name-button" onClick={() => onOpen(item.id)}>{name}</button>
      </div>
      <div role="gridcell" className="gantt-lane" style={{ insetInlineStart: NAME_WIDTH }}>
        {bar && <GanttBar itemId={item.id} name={name} offset={bar.offset} width={bar.width} when={when} editable={editable} resizable={resizable} dragging={dragging} onOpen={onOpen} />}
      </div>
    </div>
  );
});

