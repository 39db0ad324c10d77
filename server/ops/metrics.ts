import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { AppContext } from '../context';
import { embeddedServerOf } from '../realtime/broadcaster';
import { collectionList } from '../../schema/collections';

/**
 * Prometheus metrics at GET /metrics (decision 0191), with prom-client. One registry per app (tests
 * build many apps in one process; the global registry would refuse the second).
 *
 * Per process: request rate and latency by route pattern (never the raw URL: ids would make one
 * series per record), sync writes, the Node process (memory, CPU, event-loop lag, GC), and the
 * realtime connections of an embedded endpoint (the hub). Shared by the cluster, read from the
 * database at scrape time (any server answers the same): the change-log position (its rate is the
 * cluster's save rate), jobs waiting and the age of the oldest due job per name (queue depth, job
 * lag), and how far behind each event consumer is.
 *
 * Protected: it answers only with `Authorization: Bearer $METRICS_TOKEN`, and is off (404) while
 * METRICS_TOKEN is unset. Figures like route rates, queue names and memory help an attacker time
 * and aim a flood, and a bind rule alone does not survive a reverse proxy on the same host (every
 * request then comes from 127.0.0.1). The reference nginx config also refuses /metrics from outside.
 */

const WRITE_ROUTE = new RegExp(`^/api/:teamId/(?:batch|(?:${collectionList.map((c) => c.route).join('|')})(?:/:id(?:/restore)?)?)$`);

export function metricsRoutes(app: FastifyInstance, ctx: AppContext) {
  const token = ctx.config.metricsToken;
  if (!token) {
    // Off: nothing is collected (no default collectors, no hook on every answer) and /metrics is 404.
    app.get('/metrics', async (_request, reply) => reply.status(404).send({ message: 'Not Found', type: 'not_found' }));
    return;
  }
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'cairn_' });

  const requests = new Counter({ name: 'cairn_http_requests_total', help: 'HTTP requests answered, by method, route pattern and status.', labelNames: ['method', 'route', 'status'], registers: [registry] });
  const latency = new Histogram({
    name: 'cairn_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and route pattern.',
    labelNames: ['method', 'route'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const writes = new Counter({ name: 'cairn_sync_writes_total', help: 'Sync write requests (saves, deletes, restores, batches) this process answered, by outcome.', labelNames: ['route', 'outcome'], registers: [registry] });

  new Gauge({
    name: 'cairn_change_log_position',
    help: 'Highest change number handed out (cluster-wide; rate() of it is the save rate of all servers).',
    registers: [registry],
    async collect() {
      const row = await safe(() => sql<{ seq: string | null }>`select max(seq) as seq from change_log`.execute(ctx.db));
      if (row) this.set(Number(row.rows[0]?.seq ?? 0));
    },
  });
  new Gauge({
    name: 'cairn_jobs_due',
    help: 'Jobs due and not yet started, by job name (cluster-wide queue depth).',
    labelNames: ['name'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await dueJobs(ctx)) this.set({ name: row.name }, Number(row.due));
    },
  });
  new Gauge({
    name: 'cairn_job_lag_seconds',
    help: 'Age of the oldest due job that has not started, by job name (0 when none waits).',
    labelNames: ['name'],
    registers: [registry],
    async collect() {
      this.reset();
      const now = ctx.now().getTime();
      for (const row of await dueJobs(ctx)) this.set({ name: row.name }, row.oldest ? Math.max(0, (now - new Date(row.oldest).getTime()) / 1000) : 0);
    },
  });
  new Gauge({
    name: 'cairn_event_consumer_lag_seconds',
    help: 'Age of the oldest domain event a consumer has not handled yet (0 when it is caught up).',
    labelNames: ['consumer'],
    registers: [registry],
    async collect() {
      this.reset();
      const result = await safe(() =>
        sql<{ name: string; oldest: Date | string | null }>`
          select c.name, (select e.created_at from domain_events e where e.id > c.position order by e.id limit 1) as oldest from event_consumers c`.execute(ctx.db),
      );
      const now = ctx.now().getTime();
      for (const row of result?.rows ?? []) this.set({ consumer: row.name }, row.oldest ? Math.max(0, (now - new Date(row.oldest).getTime()) / 1000) : 0);
    },
  });
  const embedded = embeddedServerOf(ctx.broadcaster);
  if (embedded) {
    new Gauge({
      name: 'cairn_realtime_connections',
      help: 'Open WebSocket connections of this process’s embedded realtime endpoint (the hub).',
      registers: [registry],
      collect() {
        this.set(embedded.connectionCount);
      },
    });
  }

  app.addHook('onResponse', async (request, reply) => {
    const route = routeOf(request);
    const method = request.method;
    const status = String(reply.statusCode);
    requests.inc({ method, route, status });
    latency.observe({ method, route }, reply.elapsedTime / 1000);
    if (method !== 'GET' && WRITE_ROUTE.test(route)) writes.inc({ route, outcome: reply.statusCode < 300 ? 'ok' : reply.statusCode < 500 ? 'refused' : 'error' });
  });

  app.get('/metrics', async (request, reply) => {
    if (!bearerMatches(request.headers.authorization, token)) return reply.status(401).header('www-authenticate', 'Bearer').send({ message: 'Unauthenticated.', type: 'unauthenticated' });
    reply.header('cache-control', 'no-store').type(registry.contentType);
    return registry.metrics();
  });
}

/** The route pattern that answered (`/api/:teamId/items/:id`), or one label for anything unmatched. */
function routeOf(request: FastifyRequest): string {
  return request.routeOptions?.url ?? 'unmatched';
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const given = header?.startsWith('Bearer ') ? header.slice(7) : '';
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(token).digest();
  return crypto.timingSafeEqual(a, b);
}

async function safe<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch {
    return null; // a failing database shows as missing series (and /api/ready says so), not a failed scrape
  }
}

/**
 * Due, unstarted jobs per name: pg-boss's table on PostgreSQL and ours (PGlite, and parked events
 * everywhere; decision 0110). Which one runs is not told by the config (tests on PostgreSQL have no
 * DATABASE_URL), so both are read; pg-boss's is simply absent on PGlite.
 */
async function dueJobs(ctx: AppContext): Promise<{ name: string; due: string; oldest: Date | string | null }[]> {
  const now = ctx.now();
  const ours = await safe(() =>
    sql<{ name: string; due: string; oldest: Date | null }>`
      select name, count(*) as due, min(run_at) as oldest from jobs
      where state = 'queued' and run_at <= ${now} group by name`.execute(ctx.db),
  );
  const boss = await safe(() =>
    sql<{ name: string; due: string; oldest: Date | null }>`
      select name, count(*) as due, min(start_after) as oldest from pgboss.job
      where state in ('created', 'retry') and start_after <= ${now} group by name`.execute(ctx.db),
  );
  return [...(ours?.rows ?? []), ...(boss?.rows ?? [])];
}
