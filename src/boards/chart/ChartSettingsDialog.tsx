import { useId, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { CHART_MAX_ATTRIBUTES, CHART_TYPES, type ChartType } from '../../../schema/views';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import type { Attribute } from '../store/live';
import { CHARTABLE_KINDS } from './aggregate';

export interface ChartChoice {
  chart_type: ChartType;
  attribute_ids: string[];
  aggregate: 'count' | 'sum';
  sum_attribute_id: string | null;
  top_20: boolean;
}

/** Whether the chosen attributes are within the rule of workspace.md §9 (1 to 7). */
export const attributeCountOk = (ids: readonly string[]) => ids.length >= 1 && ids.length <= CHART_MAX_ATTRIBUTES;

/**
 * The chart's settings: type, the attributes it is drawn over (1–7, in the order chosen), count or
 * the sum of a number attribute, and "Top 20 values". Applying saves them on the view.
 */
export function ChartSettingsDialog({ attributes, initial, onApply, onClose }: { attributes: Attribute[]; initial: ChartChoice; onApply(choice: ChartChoice): Promise<boolean>; onClose(): void }) {
  const { t } = useLingui();
  const id = useId();
  const [choice, setChoice] = useState<ChartChoice>(initial);
  const [tried, setTried] = useState(false);
  const chartable = attributes.filter((a) => !a.hidden && CHARTABLE_KINDS.has(a.kind));
  const numbers = attributes.filter((a) => a.kind === 'number');
  const typeName: Record<ChartType, string> = { bar: t`Bar`, 'stacked-bar': t`Stacked bar`, pie: t`Pie`, donut: t`Donut`, line: t`Line` };
  const countOk = attributeCountOk(choice.attribute_ids);
  const sumOk = choice.aggregate === 'count' || choice.sum_attribute_id !== null;
  const set = (patch: Partial<ChartChoice>) => setChoice((c) => ({ ...c, ...patch }));
  const toggle = (attributeId: string) =>
    set({ attribute_ids: choice.attribute_ids.includes(attributeId) ? choice.attribute_ids.filter((a) => a !== attributeId) : [...choice.attribute_ids, attributeId] });

  const apply = async () => {
    setTried(true);
    if (!countOk || !sumOk) return;
    if (await onApply(choice)) onClose();
  };

  return (
    <Modal open onClose={onClose} title={t`Chart settings`} footer={<Button onClick={() => void apply()} data-testid="chart-apply">{t`Apply`}</Button>}>
      <div className="chart-settings">
        <fieldset>
          <legend>
            <Trans>Chart type</Trans>
          </legend>
          <div className="chart-type-choices">
            {CHART_TYPES.map((type) => (
              <label key={type} className="inline-field">
                <input type="radio" name={`${id}-type`} checked={choice.chart_type === type} onChange={() => set({ chart_type: type })} />
                {typeName[type]}
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset aria-describedby={`${id}-count`}>
          <legend>
            <Trans>Attributes</Trans>
          </legend>
          <p id={`${id}-count`} className={`hint${tried && !countOk ? ' is-error' : ''}`} role={tried && !countOk ? 'alert' : undefined}>
            <Trans>Select at least 1 and up to 7 attributes.</Trans>
          </p>
          {chartable.length === 0 && (
            <p className="hint">
              <Trans>This board has no attribute a chart can use.</Trans>
            </p>
          )}
          <ul className="chart-attribute-choices">
            {chartable.map((a) => {
              const at = choice.attribute_ids.indexOf(a.id);
              return (
                <li key={a.id}>
                  <label className="inline-field">
                    <input type="checkbox" checked={at >= 0} onChange={() => toggle(a.id)} />
                    {a.name}
                    {at >= 0 && <span className="chart-attribute-order">{at + 1}</span>}
                  </label>
                </li>
              );
            })}
          </ul>
          {choice.chart_type === 'stacked-bar' && (
            <p className="hint">
              <Trans>The first attribute is the axis; each further one stacks its own chart.</Trans>
            </p>
          )}
        </fieldset>
        <fieldset>
          <legend>
            <Trans>Values</Trans>
          </legend>
          <label className="inline-field">
            <input type="radio" name={`${id}-aggregate`} checked={choice.aggregate === 'count'} onChange={() => set({ aggregate: 'count' })} />
            <Trans>Count of items</Trans>
          </label>
          <label className="inline-field">
            <input type="radio" name={`${id}-aggregate`} checked={choice.aggregate === 'sum'} disabled={numbers.length === 0} onChange={() => set({ aggregate: 'sum', sum_attribute_id: choice.sum_attribute_id ?? numbers[0]?.id ?? null })} />
            <Trans>Sum of</Trans>
          </label>
          <select aria-label={t`Number attribute to sum`} value={choice.sum_attribute_id ?? ''} disabled={choice.aggregate !== 'sum'} onChange={(e) => set({ sum_attribute_id: e.target.value || null })}>
            {numbers.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
          {tried && !sumOk && (
            <p className="hint is-error" role="alert">
              <Trans>Choose a number attribute to sum.</Trans>
            </p>
          )}
        </fieldset>
        <label className="inline-field">
          <input type="checkbox" checked={choice.top_20} onChange={(e) => set({ top_20: e.target.checked })} data-testid="chart-top-20" />
          <Trans>Top 20 values</Trans>
        </label>
      </div>
    </Modal>
  );
}
