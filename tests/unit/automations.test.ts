import { describe, expect, it } from 'vitest';
import {
  addDays,
  AUTOMATION_CHAIN_MAX_DEPTH,
  automationProblems,
  chainAllows,
  conditionsHold,
  dateInZone,
  dateTriggerDueAt,
  factsOfEvent,
  renderTemplate,
  triggerMatches,
  triggerSchema,
  usageState,
  zonedTimeToUtc,
  type Trigger,
  type TriggerFact,
} from '../../schema/automations';
import type { AttributeRef } from '../../schema/filters';
import { FILTER_OPS, type FilterOp, type FilterRule } from '../../schema/views';
import { activityLine, type Words } from '../../src/boards/activity/activity-format';

/**
 * The automation evaluator (schema/automations.ts): which events fire which triggers, the
 * conditions with every operator of the view filters (schema/filters.ts), the loop guard, dates in
 * time zones and the validity check behind "The automation is not complete or not valid".
 */

const status: AttributeRef = { id: 'status', kind: 'status', settings: { options: [{ id: 'todo', name: 'Todo' }, { id: 'done', name: 'Done' }] } };
const labels: AttributeRef = { id: 'labels', kind: 'label', settings: { multiple: true, options: [{ id: 'red', name: 'Red' }, { id: 'blue', name: 'Blue' }] } };
const checked: AttributeRef = { id: 'checked', kind: 'checkbox' };
const people: AttributeRef = { id: 'people', kind: 'members' };
const due: AttributeRef = { id: 'due', kind: 'date' };
const points: AttributeRef = { id: 'points', kind: 'number' };
const notes: AttributeRef = { id: 'notes', kind: 'text' };
const button: AttributeRef = { id: 'go', kind: 'button' };
const attributes = new Map([status, labels, checked, people, due, points, notes, button].map((a) => [a.id, a]));

/** One trigger of each type, with a fact that fires it and facts that must not. */
const triggers: { trigger: Trigger; fires: TriggerFact; not: TriggerFact[] }[] = [
  { trigger: { type: 'item_created' }, fires: { type: 'item_created', item_id: 'i' }, not: [{ type: 'comment_added', item_id: 'i', comment_id: 'c' }] },
  {
    trigger: { type: 'value_changed', attribute_id: 'status', to: 'done' },
    fires: { type: 'value_changed', item_id: 'i', attribute_id: 'status', before: 'todo', after: 'done' },
    not: [
      { type: 'value_changed', item_id: 'i', attribute_id: 'status', before: 'done', after: 'todo' },
      { type: 'value_changed', item_id: 'i', attribute_id: 'status', before: 'done', after: 'done' },
      { type: 'value_changed', item_id: 'i', attribute_id: 'labels', before: null, after: 'done' },
    ],
  },
  {
    trigger: { type: 'date_arrives', attribute_id: 'due', time: '09:00', offset_days: 0, timezone: 'UTC' },
    fires: { type: 'date_arrives', item_id: 'i', attribute_id: 'due', date: '2026-03-01' },
    not: [{ type: 'date_arrives', item_id: 'i', attribute_id: 'other', date: '2026-03-01' }],
  },
  { trigger: { type: 'comment_added' }, fires: { type: 'comment_added', item_id: 'i', comment_id: 'c' }, not: [{ type: 'item_created', item_id: 'i' }] },
  {
    trigger: { type: 'button_clicked', attribute_id: 'go' },
    fires: { type: 'button_clicked', item_id: 'i', attribute_id: 'go' },
    not: [{ type: 'button_clicked', item_id: 'i', attribute_id: 'other' }],
  },
  {
    trigger: { type: 'item_moved', folder_id: 'archive' },
    fires: { type: 'item_moved', item_id: 'i', from_folder: 'inbox', to_folder: 'archive' },
    not: [
      { type: 'item_moved', item_id: 'i', from_folder: 'archive', to_folder: 'inbox' },
      { type: 'item_moved', item_id: 'i', from_folder: 'archive', to_folder: 'archive' },
    ],
  },
];

/** For each operator: a condition, values that pass it and values that do not (on the Points/Notes/… attributes). */
const conditions: Record<FilterOp, { rule: FilterRule; pass: Record<string, unknown>; fail: Record<string, unknown> }> = {
  is: { rule: { attribute_id: 'status', op: 'is', value: 'done' }, pass: { status: 'done' }, fail: { status: 'todo' } },
  'is-not': { rule: { attribute_id: 'labels', op: 'is-not', value: 'red' }, pass: { labels: ['blue'] }, fail: { labels: ['red', 'blue'] } },
  contains: { rule: { attribute_id: 'notes', op: 'contains', value: 'urgent' }, pass: { notes: 'Very URGENT fix' }, fail: { notes: 'later' } },
  'not-contains': { rule: { attribute_id: 'notes', op: 'not-contains', value: 'draft' }, pass: { notes: 'final' }, fail: { notes: 'a draft' } },
  empty: { rule: { attribute_id: 'people', op: 'empty' }, pass: { people: [] }, fail: { people: [7] } },
  'not-empty': { rule: { attribute_id: 'due', op: 'not-empty' }, pass: { due: '2026-01-02' }, fail: {} },
  gt: { rule: { attribute_id: 'points', op: 'gt', value: 3 }, pass: { points: 5 }, fail: { points: 2 } },
  lt: { rule: { attribute_id: 'due', op: 'lt', value: '2026-06-01' }, pass: { due: '2026-05-31' }, fail: { due: '2026-06-02' } },
  'any-of': { rule: { attribute_id: 'status', op: 'any-of', value: ['done'] }, pass: { status: 'done' }, fail: { status: 'todo' } },
  between: { rule: { attribute_id: 'points', op: 'between', value: [2, 4] }, pass: { points: 4 }, fail: { points: 5 } },
};

/** Whether the automation runs for the fact on an item with these values (the runner's two questions). */
function runs(trigger: Trigger, fact: TriggerFact, rules: FilterRule[], values: Record<string, unknown>, match: 'all' | 'any' = 'all'): boolean {
  const attribute = fact.type === 'value_changed' ? attributes.get(fact.attribute_id) : undefined;
  return triggerMatches(trigger, fact, attribute) && conditionsHold({ conditions: rules, match }, { id: 'i', name: 'Item' }, attributes, (_i, id) => values[id] ?? null);
}

describe('automation evaluator', () => {
  it('covers every trigger type and every filter operator', () => {
    expect(triggers.map((t) => t.trigger.type).sort()).toEqual(triggerSchema.options.map((o) => o.shape.type.value).sort());
    expect(Object.keys(conditions).sort()).toEqual([...FILTER_OPS].sort());
  });

  for (const { trigger, fires, not } of triggers) {
    describe(`trigger ${trigger.type}`, () => {
      it('fires on its fact and not on the others', () => {
        expect(runs(trigger, fires, [], {})).toBe(true);
        for (const other of not) expect(runs(trigger, other, [], {}), JSON.stringify(other)).toBe(false);
      });
      for (const op of FILTER_OPS) {
        it(`with a condition "${op}": runs when it holds, not when it does not`, () => {
          const { rule, pass, fail } = conditions[op];
          expect(runs(trigger, fires, [rule], pass)).toBe(true);
          expect(runs(trigger, fires, [rule], fail)).toBe(false);
          // A condition never makes a trigger fire that did not.
          for (const other of not) expect(runs(trigger, other, [rule], pass)).toBe(false);
        });
      }
    });
  }

  it('joins conditions with all / any', () => {
    const both = [conditions.is.rule, conditions.gt.rule];
    const fact = triggers[0]!.fires;
    expect(runs({ type: 'item_created' }, fact, both, { status: 'done', points: 1 }, 'all')).toBe(false);
    expect(runs({ type: 'item_created' }, fact, both, { status: 'done', points: 1 }, 'any')).toBe(true);
    expect(runs({ type: 'item_created' }, fact, both, { status: 'todo', points: 1 }, 'any')).toBe(false);
  });

  it('reads "changes to" by the filter rule: a member among members, a label among labels, a checkbox ticked', () => {
    const changed = (attribute: string, before: unknown, after: unknown): TriggerFact => ({ type: 'value_changed', item_id: 'i', attribute_id: attribute, before, after });
    expect(runs({ type: 'value_changed', attribute_id: 'people', to: 7 }, changed('people', [3], [3, 7]), [], {})).toBe(true);
    expect(runs({ type: 'value_changed', attribute_id: 'people', to: 7 }, changed('people', [7], [7, 3]), [], {})).toBe(false);
    expect(runs({ type: 'value_changed', attribute_id: 'labels', to: 'red' }, changed('labels', ['blue'], ['blue', 'red']), [], {})).toBe(true);
    expect(runs({ type: 'value_changed', attribute_id: 'checked', to: true }, changed('checked', null, true), [], {})).toBe(true);
    expect(runs({ type: 'value_changed', attribute_id: 'checked', to: false }, changed('checked', true, false), [], {})).toBe(true);
    expect(runs({ type: 'value_changed', attribute_id: 'due', to: '2026-02-03' }, changed('due', '2026-02-02', '2026-02-03'), [], {})).toBe(true);
    expect(runs({ type: 'value_changed', attribute_id: 'due' }, changed('due', '2026-02-02', null), [], {}), 'any change, cleared included').toBe(true);
  });

  it('turns domain events into trigger facts', () => {
    const base = { collection: 'value', record_id: 'i.status', item_id: 'i' };
    expect(factsOfEvent({ ...base, type: 'value.updated', before: { value: 'todo' }, after: { value: 'done' } })).toEqual([{ type: 'value_changed', item_id: 'i', attribute_id: 'status', before: 'todo', after: 'done' }]);
    expect(factsOfEvent({ ...base, type: 'value.created', before: null, after: { attribute_id: 'status', value: 'done' } })[0]).toMatchObject({ before: null, after: 'done' });
    expect(factsOfEvent({ type: 'item.created', collection: 'item', record_id: 'i', item_id: 'i', before: null, after: { id: 'i' } })).toEqual([{ type: 'item_created', item_id: 'i' }]);
    expect(factsOfEvent({ type: 'item.updated', collection: 'item', record_id: 'i', item_id: 'i', before: { folder_id: 'a' }, after: { folder_id: 'b' } })).toEqual([{ type: 'item_moved', item_id: 'i', from_folder: 'a', to_folder: 'b' }]);
    expect(factsOfEvent({ type: 'item.updated', collection: 'item', record_id: 'i', item_id: 'i', before: { name: 'a' }, after: { name: 'b' } }), 'a rename is no move').toEqual([]);
    expect(factsOfEvent({ type: 'comment.created', collection: 'comment', record_id: 'c', item_id: 'i', before: null, after: {} })).toEqual([{ type: 'comment_added', item_id: 'i', comment_id: 'c' }]);
    expect(factsOfEvent({ type: 'button_click.created', collection: 'button_click', record_id: 'k', item_id: 'i', before: null, after: { attribute_id: 'go' } })).toEqual([{ type: 'button_clicked', item_id: 'i', attribute_id: 'go' }]);
    expect(factsOfEvent({ type: 'comment.updated', collection: 'comment', record_id: 'c', item_id: 'i', before: {}, after: {} })).toEqual([]);
    expect(factsOfEvent({ type: 'folder.created', collection: 'folder', record_id: 'f', item_id: null, before: null, after: {} })).toEqual([]);
  });

  it('guards loops: at most 5 automations deep, never one automation twice on one item', () => {
    const link = (a: string, i: string) => ({ automation_id: a, item_id: i });
    expect(chainAllows([], 'a', 'i')).toBe(true);
    expect(chainAllows([link('a', 'i')], 'a', 'i')).toBe(false);
    expect(chainAllows([link('a', 'i')], 'a', 'j'), 'the same automation on another item').toBe(true);
    const four = ['a', 'b', 'c', 'd'].map((a) => link(a, 'i'));
    expect(chainAllows(four, 'e', 'i')).toBe(true);
    expect(chainAllows([...four, link('e', 'i')], 'f', 'i')).toBe(false);
    expect(AUTOMATION_CHAIN_MAX_DEPTH).toBe(5);
  });

  it('works out when a date arrives in a time zone, across daylight saving changes', () => {
    expect(zonedTimeToUtc('2026-01-15', '09:00', 'Europe/Belgrade').toISOString()).toBe('2026-01-15T08:00:00.000Z');
    expect(zonedTimeToUtc('2026-07-15', '09:00', 'Europe/Belgrade').toISOString()).toBe('2026-07-15T07:00:00.000Z');
    expect(zonedTimeToUtc('2026-03-08', '09:00', 'America/New_York').toISOString(), 'the day clocks go forward').toBe('2026-03-08T13:00:00.000Z');
    expect(zonedTimeToUtc('2026-05-01', '09:30', 'Asia/Kolkata').toISOString()).toBe('2026-05-01T04:00:00.000Z');
    const trigger = { type: 'date_arrives' as const, attribute_id: 'due', time: '09:00', offset_days: -1, timezone: 'Asia/Tokyo' };
    expect(dateTriggerDueAt(trigger, '2026-04-10')!.toISOString()).toBe('2026-04-09T00:00:00.000Z');
    expect(dateTriggerDueAt({ ...trigger, offset_days: 0 }, '2026-04-10T18:45')!.toISOString(), 'a date with a time fires at that time').toBe('2026-04-10T09:45:00.000Z');
    expect(dateTriggerDueAt(trigger, 'not a date')).toBeNull();
    expect(dateInZone(new Date('2026-04-09T23:30:00Z'), 'Asia/Tokyo')).toBe('2026-04-10');
    expect(addDays('2026-02-27', 3)).toBe('2026-03-02');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
  });

  it('fills templates and judges the monthly usage', () => {
    expect(renderTemplate('{{item.name}} on {{ board.name }} ({{unknown}})', { 'item.name': 'Ship', 'board.name': 'Roadmap' })).toBe('Ship on Roadmap ()');
    expect([usageState(79, 100), usageState(80, 100), usageState(99, 100), usageState(100, 100), usageState(0, 0)]).toEqual(['ok', 'warning', 'warning', 'exceeded', 'exceeded']);
  });

  it('says what makes an automation incomplete or invalid', () => {
    const facts = { attributes, folderIds: new Set(['board', 'archive']) };
    const complete = { trigger: { type: 'value_changed', attribute_id: 'status', to: 'done' }, actions: [{ type: 'move_to_folder', folder_id: 'archive' }], conditions: [] };
    expect(automationProblems(complete, facts)).toEqual([]);
    expect(automationProblems({ ...complete, trigger: null }, facts)).toEqual(['trigger: choose what starts the automation']);
    expect(automationProblems({ ...complete, actions: [] }, facts)).toEqual(['actions: add at least one action']);
    expect(automationProblems({ ...complete, actions: [{ type: 'move_to_folder' }] }, facts)).toEqual(['actions.0: complete the action']);
    expect(automationProblems({ ...complete, actions: [{ type: 'move_to_folder', folder_id: 'gone' }] }, facts)).toEqual(['actions.0: the folder is gone']);
    expect(automationProblems({ ...complete, trigger: { type: 'value_changed', attribute_id: 'notes' } }, facts)).toEqual(['trigger: not possible for a text attribute']);
    expect(automationProblems({ ...complete, trigger: { type: 'date_arrives', attribute_id: 'due', timezone: 'Mars/Olympus' } }, facts)).toEqual(['trigger: choose what starts the automation']);
    expect(automationProblems({ ...complete, actions: [{ type: 'set_value', attribute_id: 'points', relative_days: 3 }] }, facts)).toEqual(['actions.0: a relative date needs a date attribute']);
    expect(automationProblems({ ...complete, actions: [{ type: 'assign', attribute_id: 'status', user_ids: [1] }] }, facts)).toEqual(['actions.0: not possible for a status attribute']);
    expect(automationProblems({ ...complete, actions: [{ type: 'webhook', url: 'ftp://example.com' }] }, facts)).toEqual(['actions.0: complete the action']);
    expect(automationProblems({ ...complete, conditions: [{ attribute_id: 'gone', op: 'is', value: 1 }] }, facts)).toEqual(['conditions.0: the attribute is gone']);
  });

  it('names the automation on Autobot’s lines of the activity log', () => {
    const words = { name: 'Name', folder: 'Folder', pinned: 'Pinned', text: 'Text', description: 'Description', kind: 'Type', hidden: 'Hidden', yes: 'Yes', no: 'No', unknown: '?', formerMember: 'Former member', deleted: '(deleted)', formatDate: (iso: string) => iso } as Words;
    const lookup = { attribute: () => undefined, memberName: () => undefined, folderName: (id: string) => id, itemName: () => 'Ship' };
    const base = { id: '1', type: 'item.updated', collection: 'item', record_id: 'i', item_id: 'i', board_id: 'b', before: { folder_id: 'a' }, after: { folder_id: 'b' }, created_at: '2026-11-24T10:00:00Z' };
    expect(activityLine({ ...base, actor_id: 2_147_483_000, via: { automation_name: 'Archive done' } }, lookup, words)).toMatchObject({ actorId: 2_147_483_000, automation: 'Archive done' });
    expect(activityLine({ ...base, actor_id: 5 }, lookup, words)!.automation).toBeNull();
  });
});
