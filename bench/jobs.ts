/**
 * Job runner and event consumer throughput (decision 0110) on PGlite, and on PostgreSQL when
 * DATABASE_URL is set (use a scratch database: the bench adds jobs, a team and events).
 *
 *   npx tsx bench/jobs.ts [jobs=5000]
 *
 * The queue is the app's: pg-boss on PostgreSQL, our runner on PGlite (decision 0110).
 * Reports: enqueue rate (one insert per job, as a handler or route does), jobs run per second by
 * one runner and by two runners sharing the table (no-op handlers: the runner's own cost), and
 * events handled per second by one consumer (its cursor moved once per batch). Budget
 * (DESIGN.md §8): ≥ 1,000 jobs/s on PostgreSQL. Prints; never fails.
 */
import { PGlite } from '@electric-sql/pglite';
import { openDatabase, type DatabaseHandle } from '../server/db/index';
import { migrate } from '../server/db/migrate';
import { createJobs, createQueue } from '../server/jobs/index';
import type { PassLoop } from '../server/jobs/pass-loop';
import { appendEvents, type EventRow } from '../server/events/outbox';
import { registerEventConsumer } from '../server/events/consumers';
import type { AppContext } from '../server/context';

const JOBS = Number(process.argv[2] ?? 5000);
const BUDGET_PER_SECOND = 1000;
const now = () => new Date();

function line(label: string, count: number, ms: number, budget?: number): void {
  const perSecond = (count / ms) * 1000;
  const verdict = budget === undefined ? '' : perSecond >= budget ? '  (within budget)' : '  (OVER budget)';
  console.log(`${label.padEnd(48)} ${perSecond.toFixed(0).padStart(7)} /s   (${count} in ${ms.toFixed(0)} ms)${verdict}`);
}

async function enqueueAll(runner: PassLoop, name: string, count: number): Promise<number> {
  const t0 = performance.now();
  // Eight callers at once, as several requests would.
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < count) {
        const n = next++;
        await runner.enqueue(name, { n });
      }
    }),
  );
  return performance.now() - t0;
}

async function benchOn(handle: DatabaseHandle): Promise<void> {
  const kind = handle.kind;
  await migrate(handle.db);
  const budget = kind === 'postgres' ? BUDGET_PER_SECOND : undefined;
  console.log(`\n${kind}: ${JOBS} jobs (${kind === 'postgres' ? 'pg-boss' : 'our runner'})`);

  const one = createQueue(handle.db, { now, kind });
  let ran = 0;
  one.register('bench.one', async () => {
    ran += 1;
  });
  line('enqueue (one insert per job, 8 callers)', JOBS, await enqueueAll(one, 'bench.one', JOBS));
  let t0 = performance.now();
  await one.drain();
  line('run, one runner (batches of 100)', ran, performance.now() - t0, budget);

  const pair = [createQueue(handle.db, { now, kind }), createQueue(handle.db, { now, kind })];
  let ranByPair = 0;
  for (const r of pair) r.register('bench.two', async () => void (ranByPair += 1));
  await enqueueAll(pair[0]!, 'bench.two', JOBS);
  t0 = performance.now();
  await Promise.all(pair.map((r) => r.drain()));
  line('run, two runners sharing the table', ranByPair, performance.now() - t0, budget);

  // Events: a team to own them, JOBS events in one statement, one no-op consumer.
  const owner = await handle.db
    .insertInto('users')
    .values({ email: `bench-jobs-${Date.now()}@example.test`, name: 'Bench', password_hash: null, locale: 'en-US', theme: 2, preferences: '{}', recovery_codes: '[]', created_at: now(), updated_at: now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  const team = await handle.db
    .insertInto('teams')
    .values({ name: 'Bench', owner_id: owner.id, permissions: '{}', use_custom_logo: false, row_version: 1, created_at: now(), updated_at: now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  const jobs = createJobs(handle.db, { now, kind });
  let handled = 0;
  registerEventConsumer({ jobs } as unknown as AppContext, `bench-${Date.now()}`, async () => {
    handled += 1;
  });
  await jobs.prepare();
  const rows: EventRow[] = Array.from({ length: JOBS }, (_, i) => ({
    team_id: team.id, board_id: 'bench', type: 'item.updated', collection: 'item', record_id: `item-${i % 100}`, item_id: `item-${i % 100}`, actor_id: owner.id, before: { name: 'a' }, after: { name: 'b' },
  }));
  await appendEvents(handle.db, rows, now());
  t0 = performance.now();
  await jobs.drain();
  line('events handled, one consumer (batches of 200)', handled, performance.now() - t0);
  for (const queue of [one, ...pair, jobs]) await queue.stop();
}

async function main() {
  const url = process.env.DATABASE_URL;
  const handle = url ? await openDatabase({ databaseUrl: url }) : await openDatabase({ databaseUrl: null, pglite: new PGlite() });
  try {
    await benchOn(handle);
  } finally {
    await handle.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
