import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { migrations } from '../db/migrations/index';
import { fileStore } from '../files/storage';

/**
 * Health for load balancers and orchestrators (decision 0191):
 * - GET /api/health: liveness. The process answers HTTP; nothing else is asked, so a database
 *   outage never gets every API server restarted at once.
 * - GET /api/ready: readiness. 200 when the database answers, every migration this build knows is
 *   applied (a server of a newer build waits for its migrations, an older one behind a newer
 *   schema still serves) and the file store answers; 503 naming the failed check otherwise, and
 *   while the server shuts down, so the balancer stops sending before the sockets close.
 * Both are public and say nothing secret: states only, no versions, no error texts.
 */
export function healthRoutes(app: FastifyInstance, ctx: AppContext) {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });

  app.get('/api/health', async (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }));

  app.get('/api/ready', async (_request, reply) => {
    const checks = { database: 'ok', migrations: 'ok', files: 'ok' } as Record<'database' | 'migrations' | 'files', 'ok' | 'failing' | 'pending'>;
    try {
      const applied = new Set((await sql<{ name: string }>`select name from _migrations`.execute(ctx.db)).rows.map((r) => r.name));
      if (migrations.some((m) => !applied.has(m.name))) checks.migrations = 'pending';
    } catch (error) {
      checks.database = 'failing';
      checks.migrations = 'pending';
      app.log.warn({ err: error }, 'readiness: database check failed');
    }
    try {
      await withTimeout(fileStore(ctx).check(), 3000);
    } catch (error) {
      checks.files = 'failing';
      app.log.warn({ err: error }, 'readiness: file store check failed');
    }
    const ready = !closing && Object.values(checks).every((state) => state === 'ok');
    return reply
      .status(ready ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({ status: ready ? 'ready' : closing ? 'closing' : 'not_ready', checks });
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
