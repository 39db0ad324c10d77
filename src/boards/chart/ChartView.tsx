import { useCallback, useMemo, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { resolveViewSettings, type ChartType } from '../../../schema/views';
import { Button } from '../../ui/Button';
import { pageIsRtl } from '../../ui/drag/direction';
import { useBoard } from '../BoardContext';
import type { Item } from '../store/live';
import { useChangeView } from '../parts/use-change-view';
import type { ViewProps } from '../parts/view-props';
import { buildChart, type BucketHead, type ChartData, type ChartProblem } from './aggregate';
import { chartOption, segmentOf, type OptionText, type Segment } from './chart-option';
import { ChartCanvas } from './ChartCanvas';
import { ChartSettingsDialog, type ChartChoice } from './ChartSettingsDialog';
import { SegmentItems } from './SegmentItems';
import './chart.css';

/**
 * The Chart view (issue #12): the folder's filtered items bucketed by 1–7 attributes (aggregate.ts),
 * drawn with ECharts (ChartCanvas, in this lazy chunk only). A click on a segment, or on a value in
 * the table under each chart (the keyboard's way in), lists that segment's items.
 */
export default function ChartView({ folder, view, items, get, valuesReady, loadedValues }: ViewProps) {
  const { t, i18n } = useLingui();
  const board = useBoard();
  const change = useChangeView(folder, view);
  const settingsKey = JSON.stringify(view.record?.settings ?? {});
  const settings = useMemo(
    () => resolveViewSettings('chart', view.record?.settings ?? {}, board.attributes),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [settingsKey, board.attributes],
  );
  const [editing, setEditing] = useState(false);
  const [segment, setSegment] = useState<Segment | null>(null);

  const byId = useMemo(() => new Map(board.attributes.map((a) => [a.id, a])), [board.attributes]);
  const chosen = useMemo(() => settings.attribute_ids.map((id) => byId.get(id)).filter((a) => a !== undefined), [settings.attribute_ids, byId]);
  const sumAttribute = settings.aggregate === 'sum' && settings.sum_attribute_id ? (byId.get(settings.sum_attribute_id) ?? null) : null;

  const itemById = useMemo(() => new Map(items.map((i) => [i.id, i])), [items]);
  const members = board.info?.members;
  // `get` is the pane's reader: it holds the chosen attributes' values (views/view-values.ts).
  const stacked = settings.chart_type === 'stacked-bar' && chosen.length > 1;
  const result = useMemo(() => {
    const memberNames = new Map((members ?? []).map((m) => [m.id, m.name]));
    const request = { type: settings.chart_type, attributes: chosen, sumAttribute, top20: settings.top_20, names: { member: (id: number) => memberNames.get(id), item: (id: string) => itemById.get(id)?.name } };
    if (valuesReady) return buildChart(items, request, get);
    // Part by part while the columns are read (one list per attribute, read side by side): the
    // panels whose values have arrived are drawn, the others wait in their places. What cannot be
    // charted is only said once everything is read.
    if (sumAttribute && !loadedValues.has(sumAttribute.id)) return null;
    const attributes = stacked ? (loadedValues.has(chosen[0]!.id) ? [chosen[0]!, ...chosen.slice(1).filter((a) => loadedValues.has(a.id))] : []) : chosen.filter((a) => loadedValues.has(a.id));
    if (attributes.length < (stacked ? 2 : 1)) return null;
    const partial = buildChart(items, { ...request, attributes }, get);
    return partial.ok ? partial : null;
  }, [valuesReady, loadedValues, get, items, itemById, members, chosen, stacked, sumAttribute, settings.chart_type, settings.top_20]);
  // Where each panel goes: one per attribute, or per attribute the first is stacked by.
  const panelSlots = stacked ? chosen.slice(1) : chosen;

  const text = useMemo((): OptionText => {
    const months = new Intl.DateTimeFormat(i18n.locale, { year: 'numeric', month: 'short', timeZone: 'UTC' });
    const numbers = new Intl.NumberFormat(i18n.locale);
    return {
      measure: sumAttribute ? sumAttribute.name : t`Items`,
      label(head: BucketHead) {
        switch (head.kind) {
          case 'empty':
            return t`No value`;
          case 'checked':
            return t`Checked`;
          case 'unchecked':
            return t`Unchecked`;
          case 'month': {
            const [y, m] = head.label.split('-').map(Number);
            return months.format(new Date(Date.UTC(y!, m! - 1, 1)));
          }
          case 'number':
            return numbers.format(Number(head.label));
          case 'member':
            return head.label || t`Removed User`;
          case 'item':
            return head.label || t`Unknown item`;
          default:
            return head.label || t`Removed option`;
        }
      },
    };
  }, [i18n.locale, sumAttribute, t]);

  const canEdit = !board.readOnly && board.can('CUSTOMIZE_VIEW', folder.id);
  const apply = (choice: ChartChoice) => change({ ...choice });
  const initial: ChartChoice = { chart_type: settings.chart_type, attribute_ids: settings.attribute_ids, aggregate: settings.aggregate, sum_attribute_id: settings.sum_attribute_id, top_20: settings.top_20 };

  return (
    <div className="chart-view" data-testid="chart-view" data-chart-type={settings.chart_type}>
      {canEdit && (
        <div className="chart-toolbar">
          <Button size="sm" variant="secondary" onClick={() => setEditing(true)} data-testid="chart-settings">
            <Trans>Chart settings</Trans>
          </Button>
        </div>
      )}
      {result && !result.ok && <ChartFailure problem={result.problem} />}
      {result?.ok && (
        <div className={`chart-panels${panelSlots.length > 1 ? ' is-multiple' : ''}`}>
          {panelSlots.map((slot, index) => {
            // Built in slot order once everything is read; while reading, only the slots whose columns arrived.
            const panel = valuesReady ? result.panels[index] : result.panels.find((p) => (stacked ? p.stackBy?.id : p.attribute.id) === slot.id);
            return panel ? (
              <ChartPanel key={`${panel.attribute.id}-${panel.stackBy?.id ?? ''}-${index}`} panel={panel} type={settings.chart_type} text={text} onSegment={setSegment} />
            ) : (
              <figure key={`${slot.id}-${index}`} className="chart-panel is-reading" aria-busy="true" data-attribute-id={slot.id}>
                <figcaption>{slot.name}</figcaption>
                <div className="chart-canvas-placeholder" />
              </figure>
            );
          })}
        </div>
      )}
      {segment && <SegmentItems title={segment.title} items={segment.itemIds.map((id) => itemById.get(id)).filter((i): i is Item => !!i)} onClose={() => setSegment(null)} />}
      {editing && <ChartSettingsDialog attributes={board.attributes} initial={initial} onApply={apply} onClose={() => setEditing(false)} />}
    </div>
  );
}

function ChartPanel({ panel, type, text, onSegment }: { panel: ChartData; type: ChartType; text: OptionText; onSegment(segment: Segment): void }) {
  const { t } = useLingui();
  const rtl = pageIsRtl();
  const option = useMemo(() => chartOption(panel, type, text, rtl), [panel, type, text, rtl]);
  const title = panel.stackBy ? t`${panel.attribute.name ?? ''} by ${panel.stackBy.name ?? ''}` : (panel.attribute.name ?? '');
  const show = useCallback((seriesIndex: number, dataIndex: number) => {
    const found = segmentOf(panel, seriesIndex, dataIndex, text);
    if (found) onSegment(found);
  }, [panel, text, onSegment]);
  return (
    <figure className="chart-panel" data-attribute-id={panel.attribute.id}>
      <figcaption>
        {title}
        {panel.omitted > 0 && (
          <small className="chart-omitted">
            {' · '}
            {t`Top 20 of ${panel.buckets.length + panel.omitted} values`}
          </small>
        )}
      </figcaption>
      <ChartCanvas option={option} label={title} onSegment={show} />
      <details className="chart-values">
        <summary>
          <Trans>Values</Trans>
        </summary>
        <table>
          <tbody>
            {panel.buckets.map((b, i) => (
              <tr key={b.key}>
                <th scope="row">
                  <button type="button" className="list-open" onClick={() => show(-1, i)}>
                    {text.label(b)}
                  </button>
                </th>
                <td>{b.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

/** "Chart could not be generated" (workspace.md wording) and what to change. */
function ChartFailure({ problem }: { problem: ChartProblem }) {
  const { t } = useLingui();
  const why: Record<ChartProblem, string> = {
    'no-attributes': t`Select at least 1 and up to 7 attributes.`,
    'too-many-attributes': t`Select at least 1 and up to 7 attributes.`,
    'not-chartable': t`One of the chosen attributes cannot be charted.`,
    'sum-not-number': t`Choose a number attribute to sum.`,
    'no-items': t`There are no items to chart.`,
    'too-many-values': t`Too many different values to draw: turn on “Top 20 values”.`,
  };
  return (
    <div className="chart-failure" role="status" data-testid="chart-failure" data-problem={problem}>
      <p className="chart-failure-title">
        <Trans>The chart could not be generated.</Trans>
      </p>
      <p>{why[problem]}</p>
    </div>
  );
}
