/**
 * Automations under load (issue 15): a board with 100 automations, people's saves at a steady
 * rate, and the time from each triggering save to the automation's effect. Budget: p95 ≤ 1 s at
 * 200 saves/s. PGlite in memory by default; PostgreSQL when DATABASE_URL is set (a scratch
 * database: the bench adds users, a team and records).
 *
 *   npx tsx bench/automations.ts [saves=1000] [perSecond=200]
 *
 * Each save sets an item's Status to Done (after a Todo); one of the 100 automations ("when Status
 * changes to Done, tick Checked") fires, the other 99 watch other values and attributes, so every
 * event is matched against all 100. Trigger-to-effect = from the moment the save is sent to the
 * moment Autobot's write is handed to the realtime broadcaster (after its commit: what a client
 * can see). (Until decision 0200 it was measured to the run's start, which left out the run.)
 * The server runs in this process (HTTP over loopback, the job runner started as in production).
 * Prints; never fails.
 */
import fs from 'node:fs';
import os from 'node:os';
import { nanoid } from 'nanoid';
import { putRecord, seedWorkspace, startBenchServer } from './seed';

const SAVES = Number(process.argv[2] ?? 1000);
const PER_SECOND = Number(process.argv[3] ?? 200);
const AUTOMATIONS = 100;
const BUDGET_P95_MS = 1000;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** When each item's Checked value (Autobot's effect) was handed to the broadcaster, by item. */
const effectAt = new Map<string, number>();
let checkedAttribute = '';
function seen(data: unknown): void {
  const record = (data as { collection?: string; data?: { item_id?: string; attribute_id?: string } } | null) ?? null;
  if (record?.collection !== 'value' || record.data?.attribute_id !== checkedAttribute || !record.data.item_id) return;
  if (!effectAt.has(record.data.item_id)) effectAt.set(record.data.item_id, performance.now());
}

async function main() {
  const { dataDir, handle, ctx, app, base } = await startBenchServer({
    databaseUrl: process.env.DATABASE_URL ?? null,
    broadcaster: () => ({
      async publish(_channel, _event, data) {
        seen(data);
      },
      async publishMany(events) {
        for (const e of events) seen(e.data);
      },
    }),
  });

  // A plan whose monthly runs do not stop the bench.
  const { team, token } = await seedWorkspace(ctx, {
    subscription: async (ownerId, at) =>
      (await ctx.db.insertInto('subscriptions').values({ user_id: ownerId, deal: 'business', limits: JSON.stringify({ AutomationRunsLimit: 10_000_000 }), trial_ends_at: null, ends_at: null, version: 8, created_at: at }).returning('id').executeTakeFirstOrThrow()).id,
  });
  const put = putRecord(base, team.id, token);

  const boardId = nanoid();
  await put('folders', { id: boardId, board_id: boardId, parent_id: null, name: 'Bench board', row_version: 1 });
  const statusId = nanoid();
  const checkedId = nanoid();
  checkedAttribute = checkedId;
  const labelId = nanoid();
  const options = ['todo', 'doing', 'review', 'done', 'stuck'].map((id) => ({ id, name: id, color: '#E2E4F0' }));
  await put('attributes', { id: statusId, board_id: boardId, folder_id: boardId, name: 'Status', kind: 'status', settings: { options }, row_version: 1 });
  await put('attributes', { id: checkedId, board_id: boardId, folder_id: boardId, name: 'Checked', kind: 'checkbox', row_version: 1 });
  await put('attributes', { id: labelId, board_id: boardId, folder_id: boardId, name: 'Labels', kind: 'label', settings: { options }, row_version: 1 });
  for (let i = 0; i < AUTOMATIONS; i++) {
    const fires = i === 0;
    const trigger = fires
      ? { type: 'value_changed', attribute_id: statusId, to: 'done' }
      : i % 3 === 0
        ? { type: 'value_changed', attribute_id: labelId, to: options[i % 5]!.id }
        : i % 3 === 1
          ? { type: 'value_changed', attribute_id: statusId, to: i % 2 ? 'stuck' : 'review' }
          : { type: 'button_clicked', attribute_id: nanoid() };
    await put('automations', { id: nanoid(), board_id: boardId, name: `rule ${i}`, enabled: true, trigger, conditions: [], match: 'all', actions: [{ type: 'set_value', attribute_id: checkedId, value: true }], row_version: 1 });
  }
  const items: string[] = [];
  for (let i = 0; i < SAVES; i++) {
    const id = nanoid();
    items.push(id);
    await put('items', { id, board_id: boardId, folder_id: boardId, name: `Item ${i}`, row_version: 1 });
    await put('values', { id: `${id}.${statusId}`, board_id: boardId, item_id: id, attribute_id: statusId, value: 'todo', row_version: 1 });
  }
  // The setup's own events are consumed before the clock starts.
  await ctx.jobs.drain();
  ctx.jobs.start();

  console.log(`automations: ${AUTOMATIONS} on the board; ${SAVES} saves at ${PER_SECOND}/s (${handle.kind}, in-process server; this machine is shared and busy, so read the figures as rough)`);
  const t0 = performance.now();
  const sentAt = new Map<string, number>();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < SAVES; i++) {
    const due = t0 + (i * 1000) / PER_SECOND;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const id = items[i]!;
    sentAt.set(id, performance.now());
    inFlight.push(put('values', { id: `${id}.${statusId}`, board_id: boardId, item_id: id, attribute_id: statusId, value: 'done', row_version: 2 }));
  }
  await Promise.all(inFlight);
  const sendMs = performance.now() - t0;
  const deadline = Date.now() + 120_000;
  let done = 0;
  while (Date.now() < deadline) {
    const row = await ctx.db.selectFrom('automation_runs').select((eb) => eb.fn.countAll<string>().as('n')).where('team_id', '=', team.id).where('result', '=', 'done').executeTakeFirstOrThrow();
    done = Number(row.n);
    if (done >= SAVES) break;
    await sleep(200);
  }
  const allMs = performance.now() - t0;
  await ctx.jobs.stop();

  // Trigger → effect: the save sent → Autobot's write broadcast after its commit.
  const latencies = [...sentAt].filter(([item]) => effectAt.has(item)).map(([item, t]) => effectAt.get(item)! - t).sort((a, b) => a - b);
  const p50 = percentile(latencies, 50);
  const p95 = percentile(latencies, 95);
  console.log(`saves sent in ${sendMs.toFixed(0)} ms (${((SAVES / sendMs) * 1000).toFixed(0)}/s achieved); runs done ${done}/${SAVES} after ${allMs.toFixed(0)} ms`);
  console.log(`trigger → effect: p50 ${p50.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms, max ${(latencies.at(-1) ?? NaN).toFixed(0)} ms over ${latencies.length} runs  (budget p95 ≤ ${BUDGET_P95_MS} ms: ${p95 <= BUDGET_P95_MS ? 'within' : 'OVER'})`);
  await app.close();
  await handle.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
