import { sql } from 'kysely';
import { AUTOMATION_CHAIN_MAX_DEPTH, chainAllows, factsOfEvent, monthOf, triggerMatches, triggerSchema, type AutomationRecord, type ChainLink, type Trigger } from '../../schema/automations';
import type { AttributeRef } from '../../schema/filters';
import type { ConsumerContext, DomainEvent } from '../events/types';
import type { Db } from '../sync/store';
import { findRecord } from '../sync/store';
import { RUN_JOB, type RunPayload } from './run';
import { scheduleTick } from './clock';

/**
 * The `automations` event consumer (decision 0110): for each domain event on an item, the
 * enabled automations of its board whose trigger it fires get a run job, enqueued in the
 * consumer's transaction with a key naming automation and event (so a redelivered event queues
 * nothing twice). The loop guard is judged here from the chain the event carries (`via`): a
 * run it refuses is logged as skipped and never queued.
 */

export interface LiveAutomation {
  id: string;
  board_id: string;
  trigger: Trigger;
}

/** The board's enabled automations with a valid trigger. */
export async function enabledAutomations(db: Db, teamId: number, boardId: string): Promise<LiveAutomation[]> {
  const rows = await db
    .selectFrom('records')
    .select(['id', 'board_id', 'data'])
    .where('team_id', '=', teamId)
    .where('board_id', '=', boardId)
    .where('collection', '=', 'automation')
    .where(sql<string>`data->>'enabled'`, '=', 'true')
    .execute();
  const out: LiveAutomation[] = [];
  for (const row of rows) {
    const trigger = triggerSchema.safeParse((row.data as AutomationRecord).trigger);
    if (trigger.success) out.push({ id: row.id, board_id: row.board_id, trigger: trigger.data });
  }
  return out;
}

/** The chain an event carries (written by an automation's run; empty for people's writes). */
export function chainOfEvent(event: Pick<DomainEvent, 'via'>): ChainLink[] {
  const chain = (event.via as { chain?: unknown } | null | undefined)?.chain;
  if (!Array.isArray(chain)) return [];
  return chain.filter((l): l is ChainLink => !!l && typeof l === 'object' && typeof (l as ChainLink).automation_id === 'string');
}

/**
 * What one batch of the consumer has read (a batch is one transaction, `c.db`): a board's enabled
 * automations and attributes are read once per batch, not once per event — a batch of saves on one
 * board matched against its 100 automations is one query and 100 parses instead of one per event.
 * An automation or attribute event in the batch drops its entry, so the next event reads again
 * (as before, an event is matched against the automations as stored when it is handled).
 */
interface BatchMemo {
  automations: Map<string, Promise<LiveAutomation[]>>;
  attributes: Map<string, AttributeRef | null>;
}
const memos = new WeakMap<object, BatchMemo>();
function memoOf(c: ConsumerContext): BatchMemo {
  let memo = memos.get(c.db);
  if (!memo) memos.set(c.db, (memo = { automations: new Map(), attributes: new Map() }));
  return memo;
}

export async function automationsForEvent(event: DomainEvent, c: ConsumerContext): Promise<void> {
  const memo = memoOf(c);
  if (event.collection === 'automation' && event.board_id) memo.automations.delete(`${event.team_id}:${event.board_id}`);
  if (event.collection === 'attribute' && event.record_id) memo.attributes.delete(event.record_id);
  if (event.type === 'automation.created' || event.type === 'automation.updated') return dateAutomationSaved(event, c);
  if (!event.board_id || !event.item_id) return;
  const facts = factsOfEvent(event);
  if (facts.length === 0) return;
  const boardKey = `${event.team_id}:${event.board_id}`;
  let pending = memo.automations.get(boardKey);
  if (!pending) memo.automations.set(boardKey, (pending = enabledAutomations(c.db, event.team_id, event.board_id)));
  const automations = await pending;
  if (automations.length === 0) return;
  const chain = chainOfEvent(event);
  const attributes = memo.attributes;
  const attributeOf = async (id: string) => {
    if (!attributes.has(id)) {
      const row = await findRecord(c.db, 'attribute', id);
      attributes.set(id, row && !row.deleted_at ? { id, kind: String(row.data.kind), settings: (row.data.settings as Record<string, unknown>) ?? {} } : null);
    }
    return attributes.get(id) ?? undefined;
  };
  for (const automation of automations) {
    for (const fact of facts) {
      const attribute = fact.type === 'value_changed' ? await attributeOf(fact.attribute_id) : undefined;
      if (!triggerMatches(automation.trigger, fact, attribute)) continue;
      if (!chainAllows(chain, automation.id, fact.item_id)) {
        await logSkipped(c, event, automation, fact.item_id, fact.type, chain.length);
        continue;
      }
      const payload: RunPayload = { team_id: event.team_id, board_id: automation.board_id, automation_id: automation.id, item_id: fact.item_id, cause: event.id, fact, chain };
      await c.jobs.enqueue(RUN_JOB, payload, { key: `${automation.id}:${event.id}` });
    }
  }
}

async function logSkipped(c: ConsumerContext, event: DomainEvent, automation: LiveAutomation, itemId: string, trigger: string, depth: number): Promise<void> {
  const reason = depth >= AUTOMATION_CHAIN_MAX_DEPTH ? 'loop guard: the chain is 5 automations deep' : 'loop guard: this automation ran on this item earlier in the chain';
  await sql`
    insert into automation_runs (team_id, board_id, automation_id, item_id, cause, trigger, result, error, counted, month, created_at)
    values (${event.team_id}, ${automation.board_id}, ${automation.id}, ${itemId}, ${event.id}, ${trigger}, 'skipped', ${reason}, false, ${monthOf(c.now())}, ${c.now()})
    on conflict (automation_id, cause) do nothing`.execute(c.db);
}

/** A date automation switched on: the clock's tick starts (it stops by itself when none is left). */
async function dateAutomationSaved(event: DomainEvent, c: ConsumerContext): Promise<void> {
  const stored = event.record_id ? await findRecord(c.db, 'automation', event.record_id) : null;
  const data = stored?.data as AutomationRecord | undefined;
  if (!data?.enabled || (data.trigger as { type?: unknown } | null)?.type !== 'date_arrives') return;
  await scheduleTick(c.jobs, c.now(), c.db);
}
