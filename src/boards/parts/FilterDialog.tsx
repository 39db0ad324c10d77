import { useState, type RefObject } from 'react';
import { useLingui } from '@lingui/react/macro';
import { settingsOf } from '../../../schema/attributes';
import type { FilterRule } from '../../../schema/views';
import { Button } from '../../ui/Button';
import { Popover } from '../../ui/Popover';
import { AvatarImage } from '../../ui/Avatar';
import { useBoard } from '../BoardContext';
import type { Folder } from '../store/live';
import { conditionOf, conditionsFor, ruleFor, ruleIsComplete, type ConditionKey } from '../model/filter-conditions';
import type { ShownView } from './FolderPane';
import { useChangeView } from './use-change-view';

interface Field {
  id: string;
  name: string;
  kind: string;
  settings?: Record<string, unknown> | null;
}

/**
 * The filter popover (review M2): conditions that fit each attribute's kind
 * (model/filter-conditions.ts), the option and people pickers, and every change applied at once
 * (no Apply): a finished rule filters the view as soon as it is complete. Changes are the user's
 * own until "Save for everyone" (use-change-view.ts).
 */
export function FilterDialog({ anchor, folder, view, onClose }: { anchor: RefObject<HTMLButtonElement | null>; folder: Folder; view: ShownView; onClose: () => void }) {
  const { t } = useLingui();
  const change = useChangeView(folder, view);
  const board = useBoard();
  const fields: Field[] = [
    { id: 'name', name: t`Name`, kind: 'primary' },
    ...board.attributes.filter((a) => !['button', 'time-tracking', 'primary'].includes(a.kind)),
    { id: 'created_at', name: t`Created`, kind: 'date' },
  ];
  const fieldOf = (id: string) => fields.find((f) => f.id === id);
  const kindOf = (rule: FilterRule) => fieldOf(rule.attribute_id)?.kind ?? 'text';
  const [rules, setRules] = useState<FilterRule[]>(view.settings.filters);
  const [match, setMatch] = useState(view.settings.match);

  const apply = (next: FilterRule[], nextMatch = match) => {
    setRules(next);
    setMatch(nextMatch);
    // Only finished rules filter: a rule still being filled in never hides every item.
    void change({ filters: next.filter((r) => ruleIsComplete(r, kindOf(r))), match: nextMatch });
  };
  const update = (i: number, rule: FilterRule) => apply(rules.map((r, j) => (j === i ? rule : r)));

  const labels: Record<ConditionKey, string> = {
    is: t`is`,
    'is-not': t`is not`,
    'any-of': t`is any of`,
    contains: t`contains`,
    'not-contains': t`does not contain`,
    gt: t`is greater than`,
    lt: t`is less than`,
    on: t`is on`,
    before: t`is before`,
    after: t`is after`,
    between: t`is between`,
    checked: t`is checked`,
    unchecked: t`is not checked`,
    empty: t`is empty`,
    'not-empty': t`is not empty`,
  };

  const valueInput = (rule: FilterRule, i: number) => {
    const field = fieldOf(rule.attribute_id);
    const condition = conditionOf(rule, kindOf(rule));
    const set = (value: unknown) => update(i, { ...rule, value: value as never });
    switch (condition.input) {
      case 'none':
        return null;
      case 'option':
      case 'options': {
        const options = field ? settingsOf(field.kind === 'status' ? 'status' : 'label', field.settings).options : [];
        const many = condition.input === 'options';
        const chosen = many ? (Array.isArray(rule.value) ? (rule.value as string[]) : []) : rule.value ? [String(rule.value)] : [];
        return (
          <span className="filter-picker" role="group" aria-label={t`Value`}>
            {options.map((o) => (
              <button
                key={o.id}
                type="button"
                className="label-chip filter-chip"
                aria-pressed={chosen.includes(o.id)}
                style={{ background: o.color, color: o.textColor }}
                onClick={() => set(many ? (chosen.includes(o.id) ? chosen.filter((c) => c !== o.id) : [...chosen, o.id]) : chosen.includes(o.id) ? undefined : o.id)}
              >
                {o.name}
              </button>
            ))}
          </span>
        );
      }
      case 'person':
      case 'people': {
        const members = board.info?.members ?? [];
        const many = condition.input === 'people';
        const chosen = many ? (Array.isArray(rule.value) ? (rule.value as number[]) : []) : typeof rule.value === 'number' ? [rule.value] : [];
        return (
          <span className="filter-picker" role="group" aria-label={t`Value`}>
            {members.map((m) => (
              <button
                key={m.id}
                type="button"
                className="filter-chip filter-person"
                aria-pressed={chosen.includes(m.id)}
                onClick={() => set(many ? (chosen.includes(m.id) ? chosen.filter((c) => c !== m.id) : [...chosen, m.id]) : chosen.includes(m.id) ? undefined : m.id)}
              >
                <AvatarImage name={m.name} photoUrl={m.photo_url} size="xs" />
                {m.name}
              </button>
            ))}
          </span>
        );
      }
      case 'number':
        return <input aria-label={t`Value`} inputMode="decimal" defaultValue={rule.value === undefined ? '' : String(rule.value)} onChange={(e) => set(toNumber(e.target.value))} />;
      case 'numbers': {
        const [from, to] = Array.isArray(rule.value) ? (rule.value as unknown[]) : [];
        return (
          <>
            <input aria-label={t`From`} inputMode="decimal" defaultValue={from === undefined || from === null ? '' : String(from)} onChange={(e) => set([toNumber(e.target.value), to])} />
            <input aria-label={t`To`} inputMode="decimal" defaultValue={to === undefined || to === null ? '' : String(to)} onChange={(e) => set([from, toNumber(e.target.value)])} />
          </>
        );
      }
      case 'date':
        return <input type="date" aria-label={t`Value`} value={typeof rule.value === 'string' ? rule.value : ''} onChange={(e) => set(e.target.value || undefined)} />;
      case 'dates': {
        const [from, to] = Array.isArray(rule.value) ? (rule.value as (string | undefined)[]) : [];
        return (
          <>
            <input type="date" aria-label={t`From`} value={from ?? ''} onChange={(e) => set([e.target.value || undefined, to])} />
            <input type="date" aria-label={t`To`} value={to ?? ''} onChange={(e) => set([from, e.target.value || undefined])} />
          </>
        );
      }
      default:
        return <input aria-label={t`Value`} value={typeof rule.value === 'string' ? rule.value : rule.value === undefined ? '' : String(rule.value)} onChange={(e) => set(e.target.value)} />;
    }
  };

  return (
    <Popover anchor={anchor} open onClose={onClose} title={t`Filter`}>
      <label className="inline-field">
        {t`Show items that match`}
        <select value={match} onChange={(e) => apply(rules, e.target.value as 'all' | 'any')}>
          <option value="all">{t`all filters`}</option>
          <option value="any">{t`any filter`}</option>
        </select>
      </label>
      <ul className="rule-list">
        {rules.map((rule, i) => {
          const kind = kindOf(rule);
          const conditions = conditionsFor(kind);
          const current = conditionOf(rule, kind);
          return (
            <li key={i} data-testid="filter-rule">
              <select
                aria-label={t`Attribute`}
                value={rule.attribute_id}
                onChange={(e) => {
                  const next = fieldOf(e.target.value);
                  update(i, ruleFor(e.target.value, conditionsFor(next?.kind ?? 'text')[0]!));
                }}
              >
                {fields.map((f) => (
                  <option key={f.id} value={f.id}>
                    {f.name}
                  </option>
                ))}
              </select>
              <select
                aria-label={t`Condition`}
                value={current.key}
                onChange={(e) => update(i, ruleFor(rule.attribute_id, conditions.find((c) => c.key === e.target.value)!, { input: current.input, value: rule.value }))}
              >
                {conditions.map((c) => (
                  <option key={c.key} value={c.key}>
                    {labels[c.key]}
                  </option>
                ))}
              </select>
              {valueInput(rule, i)}
              <Button variant="ghost" size="sm" onClick={() => apply(rules.filter((_, j) => j !== i))}>
                {t`Remove`}
              </Button>
            </li>
          );
        })}
      </ul>
      <Button
        variant="secondary"
        size="sm"
        onClick={() => {
          const first = fields[0]!;
          apply([...rules, ruleFor(first.id, conditionsFor(first.kind)[0]!)]);
        }}
      >
        {t`Add filter`}
      </Button>
    </Popover>
  );
}

function toNumber(text: string): number | undefined {
  const n = Number(text.trim().replace(',', '.'));
  return text.trim() === '' || !Number.isFinite(n) ? undefined : n;
}
