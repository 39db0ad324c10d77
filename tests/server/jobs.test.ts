import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { sql } from 'kysely';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { board, item, teamWithRoles, type TeamFixture } from './sync-fixtures';
import { createJobs, createQueue } from '../../server/jobs/index';
import { JobRunner } from '../../server/jobs/runner';
import { PgBossQueue } from '../../server/jobs/pgboss-queue';
import { registerEventConsumer, MAX_ATTEMPTS } from '../../server/events/consumers';
import type { AppContext } from '../../server/context';

/**
 * The job queue and event consumers (decision 0110), on whichever database the suite runs on:
 * PGlite by default (our runner), PostgreSQL with TEST_DATABASE_URL (pg-boss). Retries with
 * backoff and a visible last error, keys, enqueue with a transaction, a runner dying mid-job, two
 * runners sharing work, a consumer's writes committed exactly once with its cursor.
 *
 * Our runner follows the server's clock (moved with advance()); pg-boss the database's, so on
 * PostgreSQL the retry and lease waits are real (a few seconds).
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

describe('jobs and event consumers', () => {
  let server: TestServer;
  let t: TeamFixture;
  const b = board();
  const now = () => server.ctx.now();
  const jobRow = (name: string) => server.ctx.jobs.inspect(name);
  const parkedRows = async () => server.ctx.db.selectFrom('jobs').selectAll().where('name', '=', 'events.failed').orderBy('id').execute();
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  /** Lets `ms` of job time pass: the server clock for our runner; real time (pg-boss jitters backoff up to 2×) on PostgreSQL. */
  const jobTimePasses = async (ms: number) => (onPostgres ? sleep(2 * ms + 100) : server.advance(ms));
  const kind = onPostgres ? ('postgres' as const) : ('pglite' as const);
  /** Records whose events the test consumer fails on (a poison event while listed). */
  const poisoned = new Set<string>();
  const effects: string[] = [];

  beforeAll(async () => {
    server = await createTestServer();
    // A table the handlers below write their effects to, keyed, as idempotent handlers do.
    await sql`create table test_effects (key text primary key, by text)`.execute(server.ctx.db);
    // A consumer that writes one row per event through its transaction, and then throws on the
    // events of poisoned records (so the write must roll back).
    registerEventConsumer(server.ctx, 'test-effects', async (event, c) => {
      await sql`insert into test_effects (key, by) values (${'event:' + event.id}, 'consumer')`.execute(c.db);
      if (event.record_id && poisoned.has(event.record_id)) throw new Error('consumer boom');
    });
    t = await teamWithRoles(server.ctx);
    expect((await api(server.app, 'PUT', `/api/${t.teamId}/folders/${b.id}`, { token: t.owner.token, body: b })).statusCode).toBe(200);
    await server.ctx.jobs.drain();
  });
  /** Queues of "other servers" made by the tests, stopped before the database closes. */
  const others: { stop(): Promise<void> }[] = [];
  const another = (opts: Partial<Parameters<typeof createQueue>[1]>) => {
    const queue = createQueue(server.ctx.db, { now, kind, ...opts });
    others.push(queue);
    return queue;
  };
  afterAll(async () => {
    for (const queue of others) await queue.stop();
    await server.close();
  });

  it('a failing job retries with exponential backoff, shows its last error, then stays failed', async () => {
    // Our runner's backoff follows the server's clock, held still here so "not due yet" holds on a
    // slow machine; pg-boss's follows the database's, which goes on (issue #32).
    if (!onPostgres) {
      server.freeze();
      onTestFinished(() => server.thaw());
    }
    const jobClock = () => (onPostgres ? Date.now() : now().getTime());
    const jobs = server.ctx.jobs;
    let runs = 0;
    jobs.register('test.flaky', async () => {
      runs += 1;
      throw new Error(`flaky ${runs}`);
    });
    await jobs.enqueue('test.flaky', { a: 1 }, { maxAttempts: 3 });
    await jobs.drain();
    let [row] = await jobRow('test.flaky');
    expect(row).toMatchObject({ state: 'queued', attempts: 1, last_error: 'Error: flaky 1' });
    expect(new Date(row!.run_at).getTime() - jobClock()).toBeGreaterThan(500); // 1 s backoff
    await jobs.drain();
    expect(runs).toBe(1); // not due yet
    await jobTimePasses(1000);
    await jobs.drain();
    [row] = await jobRow('test.flaky');
    expect(row).toMatchObject({ state: 'queued', attempts: 2, last_error: 'Error: flaky 2' });
    expect(new Date(row!.run_at).getTime() - jobClock()).toBeGreaterThan(1500); // 2 s backoff
    await jobTimePasses(2000);
    await jobs.drain();
    [row] = await jobRow('test.flaky');
    expect(row).toMatchObject({ state: 'failed', attempts: 3, last_error: 'Error: flaky 3' });
    server.advance(60_000);
    await jobs.drain();
    expect(runs).toBe(3);
  });

  it('a key makes a second enqueue a no-op; a job enqueued in a rolled-back transaction never exists', async () => {
    const jobs = server.ctx.jobs;
    const payloads: unknown[] = [];
    jobs.register('test.keyed', async (payload) => {
      payloads.push(payload);
    });
    await jobs.enqueue('test.keyed', { n: 1 }, { key: 'k' });
    await jobs.enqueue('test.keyed', { n: 2 }, { key: 'k' });
    await server.ctx.db
      .transaction()
      .execute(async (trx) => {
        await jobs.enqueue('test.keyed', { n: 3 }, { db: trx });
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await jobs.drain();
    expect(payloads).toEqual([{ n: 1 }]);
    expect((await jobRow('test.keyed')).map((r) => r.state)).toEqual(['done']);
  });

  it('a job whose runner died mid-run is taken over after its lease, and its effect happens once', async () => {
    const handler = (by: string, hang: Promise<void> | null) => async (payload: { key: string }) => {
      if (hang) await hang;
      await sql`insert into test_effects (key, by) values (${payload.key}, ${by}) on conflict (key) do nothing`.execute(server.ctx.db);
    };
    let release!: () => void;
    const hang = new Promise<void>((r) => (release = r));
    // Runner A (a server that will "die"): claims the job, then its handler never gets anywhere.
    const leaseMs = onPostgres ? 1000 : 30_000;
    const a = another({ leaseMs });
    a.register('test.lease', handler('a', hang));
    // (enqueued by A: the lease is the enqueuing queue's setting on pg-boss)
    await a.enqueue('test.lease', { key: 'lease-1' });
    const aRun = a.runOnce();
    for (let i = 0; i < 100 && (await jobRow('test.lease'))[0]?.state !== 'running'; i++) await sleep(10);
    expect((await jobRow('test.lease'))[0]).toMatchObject({ state: 'running', attempts: 1, owner: a instanceof JobRunner ? a.workerId : null });

    // Runner B (the restarted server): the lease still holds, so it leaves the job alone …
    const b2 = another({ leaseMs });
    b2.register('test.lease', handler('b', null));
    await b2.drain();
    expect((await jobRow('test.lease'))[0]!.state).toBe('running');
    // … until the lease runs out: then it runs the job to the end.
    if (onPostgres) {
      await sleep(leaseMs + 200);
      await (b2 as PgBossQueue).expireNow(); // pg-boss's maintenance would, within its interval
      await sleep(2100); // the retry delay (1–2 s)
    } else {
      server.advance(leaseMs + 1000);
    }
    await b2.drain();
    expect((await jobRow('test.lease'))[0]).toMatchObject({ state: 'done', attempts: 2 });
    // A's run finishing late changes nothing: its completion is no longer its to write, and the
    // idempotent effect is there once.
    release();
    await aRun;
    expect((await jobRow('test.lease'))[0]).toMatchObject({ state: 'done', attempts: 2 });
    const rows = await sql<{ by: string }>`select by from test_effects where key = 'lease-1'`.execute(server.ctx.db);
    expect(rows.rows).toEqual([{ by: 'b' }]);
  });

  it('two runners on one database share the jobs and run each exactly once', async () => {
    const ran = new Map<number, string>();
    const make = (label: string) => {
      const runner = another({ batchSize: 10 });
      runner.register('test.shared', async (payload: { n: number }) => {
        expect(ran.has(payload.n)).toBe(false);
        ran.set(payload.n, label);
        await sleep(2);
      });
      return runner;
    };
    const one = make('one');
    const two = make('two');
    for (let n = 0; n < 200; n++) await server.ctx.jobs.enqueue('test.shared', { n });
    await Promise.all([one.drain(), two.drain()]);
    expect(ran.size).toBe(200);
    const byRunner = [...ran.values()];
    expect(byRunner.filter((l) => l === 'one').length).toBeGreaterThan(0);
    expect(byRunner.filter((l) => l === 'two').length).toBeGreaterThan(0);
    const states = (await jobRow('test.shared')).map((j) => j.state);
    expect(states).toHaveLength(200);
    expect(new Set(states)).toEqual(new Set(['done']));
  });

  it("a consumer's failed attempt leaves nothing behind; it retries with backoff and its effect commits once", async () => {
    // The consumer's backoff follows the server's clock: held still, the backoff is over only when
    // advance() says so, not when a slow machine took over a second between two drains.
    server.freeze();
    onTestFinished(() => server.thaw());
    const it1 = item(b.id);
    poisoned.add(it1.id);
    expect((await api(server.app, 'PUT', `/api/${t.teamId}/items/${it1.id}`, { token: t.full.token, body: it1 })).statusCode).toBe(200);
    const [event] = await server.ctx.db.selectFrom('domain_events').select('id').where('record_id', '=', it1.id).execute();
    const key = `event:${event!.id}`;
    await server.ctx.jobs.drain();
    const cursor = await server.ctx.db.selectFrom('event_consumers').selectAll().where('name', '=', 'test-effects').executeTakeFirstOrThrow();
    expect(cursor).toMatchObject({ attempts: 1, last_error: 'Error: consumer boom' });
    expect(Number(cursor.position)).toBeLessThan(Number(event!.id));
    // The failed attempt's write was rolled back with it.
    expect((await sql`select 1 from test_effects where key = ${key}`.execute(server.ctx.db)).rows).toHaveLength(0);
    await server.ctx.jobs.drain();
    poisoned.delete(it1.id); // the cause is gone …
    await server.ctx.jobs.drain();
    expect((await sql`select 1 from test_effects where key = ${key}`.execute(server.ctx.db)).rows).toHaveLength(0); // … but the backoff is not over
    server.advance(1000);
    await server.ctx.jobs.drain();
    await server.ctx.jobs.drain();
    expect((await sql`select by from test_effects where key = ${key}`.execute(server.ctx.db)).rows).toEqual([{ by: 'consumer' }]);
    const after = await server.ctx.db.selectFrom('event_consumers').selectAll().where('name', '=', 'test-effects').executeTakeFirstOrThrow();
    expect(after).toMatchObject({ attempts: 0, last_error: null });
    expect(Number(after.position)).toBeGreaterThanOrEqual(Number(event!.id));
  });

  it('an event that keeps failing is parked as a failed job and the consumer goes on', async () => {
    const first = item(b.id);
    const second = item(b.id);
    poisoned.add(first.id);
    for (const rec of [first, second]) expect((await api(server.app, 'PUT', `/api/${t.teamId}/items/${rec.id}`, { token: t.full.token, body: rec })).statusCode).toBe(200);
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      await server.ctx.jobs.drain();
      server.advance(2 ** i * 1000);
    }
    await server.ctx.jobs.drain();
    const [parked] = await parkedRows();
    const [firstEvent] = await server.ctx.db.selectFrom('domain_events').select('id').where('record_id', '=', first.id).execute();
    const [secondEvent] = await server.ctx.db.selectFrom('domain_events').select('id').where('record_id', '=', second.id).execute();
    expect(parked).toMatchObject({ state: 'failed', last_error: 'Error: consumer boom', payload: { consumer: 'test-effects', event_id: String(firstEvent!.id) } });
    expect((await sql`select 1 from test_effects where key = ${'event:' + firstEvent!.id}`.execute(server.ctx.db)).rows).toHaveLength(0);
    expect((await sql`select 1 from test_effects where key = ${'event:' + secondEvent!.id}`.execute(server.ctx.db)).rows).toHaveLength(1);
  });

  it('two servers share a consumer: each event is handled once, in order', async () => {
    const handled: { by: string; id: string }[] = [];
    const servers = ['one', 'two'].map((label) => {
      const jobs = createJobs(server.ctx.db, { now, kind });
      others.push(jobs);
      registerEventConsumer({ jobs } as unknown as AppContext, 'test-shared-consumer', async (event) => {
        handled.push({ by: label, id: event.id });
        await sleep(1);
      });
      return jobs;
    });
    for (const jobs of servers) await jobs.prepare();
    const items = Array.from({ length: 30 }, () => item(b.id));
    for (const rec of items) expect((await api(server.app, 'PUT', `/api/${t.teamId}/items/${rec.id}`, { token: t.full.token, body: rec })).statusCode).toBe(200);
    await Promise.all(servers.map((jobs) => jobs.drain()));
    const ids = (await server.ctx.db.selectFrom('domain_events').select('id').where('record_id', 'in', items.map((i) => i.id)).orderBy('id').execute()).map((r) => String(r.id));
    const got = handled.map((h) => h.id).filter((id) => ids.includes(id));
    expect(got).toEqual(ids); // once each, in id order, whichever server took the batch
  });

  it('a started runner handles a write without anyone draining', async () => {
    const jobs = createJobs(server.ctx.db, { now, pollMs: 50, kind });
    const got: string[] = [];
    jobs.register('test.started', async (payload: { id: string }) => {
      got.push(payload.id);
    });
    jobs.start();
    try {
      await jobs.enqueue('test.started', { id: 'x' });
      for (let i = 0; i < 200 && got.length === 0; i++) await sleep(10);
      expect(got).toEqual(['x']);
    } finally {
      await jobs.stop();
    }
  });
});
