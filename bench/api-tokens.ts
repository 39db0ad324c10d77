/**
 * API tokens: what authenticating a request costs with a session token, a personal access token
 * (hash lookup in api_tokens + the route's ability check, decision 0145) and an OAuth access token,
 * through the real app (Fastify inject) on PGlite in memory, and on PostgreSQL when DATABASE_URL is
 * set (a scratch database). The request is GET /api/me (guard + one user read), so the figures are
 * mostly authentication.
 *
 *   npx tsx bench/api-tokens.ts [requests=2000] [concurrency=8]
 *
 * No budget of its own in DESIGN.md §8; the comparison is with the session path. Prints; never fails.
 */
import os from 'node:os';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase, type DatabaseHandle } from '../server/db/index';
import { benchUser, inProcessApp } from './in-process-app';
import { hashToken } from '../server/auth/tokens';
import { createPersonalToken, newSecret } from '../server/developer/api-tokens';
import { registerApp } from '../server/developer/oauth-clients';
import { TOKEN_PREFIX } from '../schema/api-abilities';

const REQUESTS = Number(process.argv[2] ?? 2000);
const CONCURRENCY = Number(process.argv[3] ?? 8);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;

async function measure(label: string, send: () => Promise<number>): Promise<void> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < REQUESTS) {
        const t0 = performance.now();
        const status = await send();
        if (status !== 200) throw new Error(`${label}: status ${status}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const sorted = latencies.sort((a, b) => a - b);
  console.log(`${label.padEnd(30)} ${(latencies.length / seconds).toFixed(0).padStart(6)} req/s   p50 ${percentile(sorted, 50).toFixed(2).padStart(6)} ms   p99 ${percentile(sorted, 99).toFixed(2).padStart(6)} ms`);
}

async function benchOn(kind: string, handle: DatabaseHandle): Promise<void> {
  const bench = await inProcessApp(handle);
  const { app, ctx } = bench;
  const now = new Date();
  const signedIn = await benchUser(ctx);
  const user = { id: signedIn.id };
  const session = signedIn.token;
  const personal = (await createPersonalToken(ctx.db, user.id, { name: 'bench', abilities: ['read'], expiresAt: null }, now)).token;
  // An OAuth access token as the token endpoint stores it (the flow itself is tested elsewhere).
  const client = await registerApp(ctx.db, user.id, { name: 'Bench app', redirect_uris: ['https://bench.test/cb'] }, now);
  const oauth = newSecret(TOKEN_PREFIX.oauth);
  await ctx.db
    .insertInto('api_tokens')
    .values({ user_id: user.id, kind: 'oauth', name: client.name, client_id: client.id, token_hash: hashToken(oauth), abilities: ['read'], expires_at: new Date(now.getTime() + 3600_000), created_at: now })
    .execute();
  const get = (token: string) => async () => (await app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } })).statusCode;

  console.log(`\n${kind}: ${REQUESTS} × GET /api/me, ${CONCURRENCY} at a time`);
  for (const round of [1, 2]) {
    await measure(`session token (round ${round})`, get(session));
    await measure(`personal token (round ${round})`, get(personal));
    await measure(`OAuth token (round ${round})`, get(oauth));
  }
  await bench.close();
}

async function main() {
  const load = os.loadavg().map((l) => l.toFixed(1)).join(' ');
  console.log(`API token bench — ${os.cpus().length} cores, node ${process.version}, load average ${load} (figures scale with other load on the machine)`);
  const local = await openDatabase({ databaseUrl: null, pglite: new PGlite() });
  await benchOn('PGlite (in memory)', local);
  await local.close();
  if (process.env.DATABASE_URL) {
    const remote = await openDatabase({ databaseUrl: process.env.DATABASE_URL });
    await benchOn('PostgreSQL (DATABASE_URL)', remote);
    await remote.close();
  } else {
    console.log('\nPostgreSQL: skipped (set DATABASE_URL to a scratch database to include it)');
  }
}

main().catch((error) => {
  console.error('bench failed to run:', error);
  process.exitCode = 0;
});
