import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { board, item, teamWithRoles, type TeamFixture } from './sync-fixtures';
import { loadConfig } from '../../server/config';
import { buildApp } from '../../server/app';
import { createJobs } from '../../server/jobs/index';

/**
 * Operations endpoints (decision 0191): liveness, readiness (database, migrations, file store),
 * and Prometheus metrics behind METRICS_TOKEN.
 */
describe('ops: health, readiness, metrics', () => {
  let server: TestServer;
  let t: TeamFixture;
  const TOKEN = 'metrics-token-for-tests-0123456789';
  const scrape = async () => {
    const res = await server.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode, res.body).toBe(200);
    return res.body;
  };
  /** The value of one series line (`name{labels} value`), or null when absent. */
  const series = (text: string, line: RegExp) => {
    const found = text.split('\n').find((l) => line.test(l));
    return found ? Number(found.slice(found.lastIndexOf(' ') + 1)) : null;
  };

  beforeAll(async () => {
    server = await createTestServer({ realtime: true, config: { metricsToken: TOKEN } });
    t = await teamWithRoles(server.ctx);
  });
  afterAll(() => server?.close());

  it('answers liveness without asking anything else', async () => {
    const res = await api(server.app, 'GET', '/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('is ready when the database answers, every migration is applied and the file store answers', async () => {
    const res = await api(server.app, 'GET', '/api/ready');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', files: 'ok' } });
  });

  it('is not ready while a migration this build knows is missing', async () => {
    const [last] = (await sql<{ name: string }>`select name from _migrations order by name desc limit 1`.execute(server.ctx.db)).rows;
    await sql`delete from _migrations where name = ${last!.name}`.execute(server.ctx.db);
    try {
      const res = await api(server.app, 'GET', '/api/ready');
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'not_ready', checks: { database: 'ok', migrations: 'pending', files: 'ok' } });
    } finally {
      await sql`insert into _migrations (name) values (${last!.name})`.execute(server.ctx.db);
    }
    expect((await api(server.app, 'GET', '/api/ready')).statusCode).toBe(200);
  });

  it('keeps /metrics off without METRICS_TOKEN and refuses a wrong token', async () => {
    // Another server on the same database without the token (its own job queue, as another process has).
    const off = await buildApp({ ...server.ctx, config: { ...server.ctx.config, metricsToken: null }, jobs: createJobs(server.ctx.db, { now: server.ctx.now, kind: server.ctx.config.databaseUrl ? 'postgres' : 'pglite' }) }, { logger: false });
    try {
      expect((await off.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
      expect((await off.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer anything' } })).statusCode).toBe(404);
    } finally {
      await off.close();
    }
    expect(loadConfig({ PUSHER_APP_SECRET: 'a-long-enough-secret-123' }).metricsToken).toBeNull();
    expect((await server.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    expect((await server.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}x` } })).statusCode).toBe(401);
    expect(loadConfig({ METRICS_TOKEN: 'abc', PUSHER_APP_SECRET: 'a-long-enough-secret-123' }).metricsToken).toBe('abc');
  });

  it('counts requests by route pattern, sync writes, the change log and the realtime connections', async () => {
    const b = board();
    const before = series(await scrape(), /^cairn_sync_writes_total\{route="\/api\/:teamId\/folders\/:id",outcome="ok"\}/) ?? 0;
    expect((await api(server.app, 'PUT', `/api/${t.teamId}/folders/${b.id}`, { token: t.owner.token, body: b })).statusCode).toBe(200);
    const i = item(b.id);
    expect((await api(server.app, 'PUT', `/api/${t.teamId}/items/${i.id}`, { token: t.owner.token, body: i })).statusCode).toBe(200);
    // A refused write counts as refused, by its pattern (never the raw URL with its ids).
    expect((await api(server.app, 'PUT', `/api/${t.teamId}/items/${i.id}`, { token: t.owner.token, body: { ...i, row_version: 1 } })).statusCode).toBe(409);
    const text = await scrape();
    expect(series(text, /^cairn_sync_writes_total\{route="\/api\/:teamId\/folders\/:id",outcome="ok"\}/)).toBe(before + 1);
    expect(series(text, /^cairn_sync_writes_total\{route="\/api\/:teamId\/items\/:id",outcome="refused"\}/)).toBe(1);
    expect(series(text, /^cairn_http_requests_total\{method="PUT",route="\/api\/:teamId\/items\/:id",status="200"\}/)).toBe(1);
    expect(text).not.toContain(i.id);
    expect(series(text, /^cairn_http_request_duration_seconds_count\{method="PUT",route="\/api\/:teamId\/items\/:id"\}/)).toBe(2);
    const { rows } = await sql<{ seq: string }>`select max(seq) as seq from change_log`.execute(server.ctx.db);
    expect(series(text, /^cairn_change_log_position /)).toBe(Number(rows[0]!.seq));
    expect(series(text, /^cairn_realtime_connections /)).toBe(0);
    expect(text).toMatch(/^cairn_process_resident_memory_bytes /m);
  });

  it('shows jobs waiting and their lag, and how far behind each event consumer is', async () => {
    // The consumers' cursors exist once the queue has run; then a save leaves them behind.
    await server.ctx.jobs.drain();
    const b = board();
    expect((await api(server.app, 'PUT', `/api/${t.teamId}/folders/${b.id}`, { token: t.owner.token, body: b })).statusCode).toBe(200);
    server.ctx.jobs.register('ops.test', async () => undefined);
    await server.ctx.jobs.enqueue('ops.test', { n: 1 }, { runAt: new Date(server.ctx.now().getTime() - 5000) });
    const text = await scrape();
    expect(series(text, /^cairn_jobs_due\{name="ops\.test"\}/)).toBe(1);
    expect(series(text, /^cairn_job_lag_seconds\{name="ops\.test"\}/)).toBeGreaterThanOrEqual(4);
    // The saves above made events no consumer has handled yet (tests drain by hand).
    const lags = text.split('\n').filter((l) => l.startsWith('cairn_event_consumer_lag_seconds{'));
    expect(lags.length).toBeGreaterThan(0);
    expect(lags.some((l) => !l.endsWith(' 0'))).toBe(true);
    await server.ctx.jobs.drain();
    const after = await scrape();
    expect(series(after, /^cairn_jobs_due\{name="ops\.test"\}/)).toBeNull();
    expect(after.split('\n').filter((l) => l.startsWith('cairn_event_consumer_lag_seconds{')).every((l) => l.endsWith(' 0'))).toBe(true);
  });
});
