import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Pusher from 'pusher-js';
import { sql } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../../server/db/index';
import { hashPassword } from '../../server/accounts/password';
import { createRealtime, type PusherConstructor, type Realtime, type RealtimeEvent } from '../../sync-worker/realtime';
import type { AppContext } from '../../server/context';
import { createDatabase, startCluster, type CairnProcess, type Cluster } from '../../scripts/scale/cluster';
import { PG_TEMPLATE_DB } from '../helpers/global-setup';
import { createUserWithToken } from '../helpers/users';
import { addMember, board, createTeam, item, newId, attribute, type SignedIn } from '../server/sync-fixtures';
import { waitFor } from '../helpers/wait';
import { HEAVY_TEST_TIMEOUT_MS } from '../helpers/limits';
import { addLogSource } from '../helpers/trail';

/**
 * Scale-out proven with real processes (issue 19, decision 0192): a realtime hub, two API servers
 * publishing to it (PUSHER_HOST), one PostgreSQL, one S3-compatible store, a round-robin balancer
 * (scripts/scale/cluster.ts, also `npm run scale:up`). PostgreSQL only: runs when
 * TEST_DATABASE_URL is set (npm test's PostgreSQL step).
 */
const url = process.env.TEST_DATABASE_URL;

// Each case may wait on three processes sharing a busy machine (CI runs this beside e2e at nice 5):
// the limit of process-starting tests (tests/helpers/limits.ts).
describe.skipIf(!url)('scale-out: a hub and two API servers on one PostgreSQL', { timeout: HEAVY_TEST_TIMEOUT_MS }, () => {
  let cluster: Cluster;
  let database: { url: string; drop(): Promise<void> };
  let handle: DatabaseHandle;
  /** A context for fixtures written straight into the shared database (users, workspaces). */
  let ctx: AppContext;
  let one: CairnProcess;
  let two: CairnProcess;
  let owner: SignedIn;
  let member: SignedIn;
  let teamId: number;
  const b = board({ name: 'Scaled board' });
  const stops: Array<() => void> = [];

  async function call(base: string, method: string, path: string, opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) {
    const res = await fetch(base + path, {
      method,
      headers: { ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}), ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), ...opts.headers },
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
    });
    const text = await res.text();
    let json: any = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = text;
    }
    return { status: res.status, json, headers: res.headers };
  }
  const put = (base: string, route: string, body: { id: string }, token = owner.token, headers: Record<string, string> = {}) =>
    call(base, 'PUT', `/api/${teamId}/${route}/${body.id}`, { token, body, headers });

  beforeAll(async () => {
    const started = Date.now();
    database = await createDatabase(url!, { template: PG_TEMPLATE_DB });
    // Webhooks to this machine's receiver (loopback): allowed for the test only.
    cluster = await startCluster({ databaseUrl: database.url, env: { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' } });
    [one, two] = cluster.apis as [CairnProcess, CairnProcess];
    // A failing case prints the last output of each process (tests/helpers/failure-report.ts).
    for (const proc of [cluster.hub, ...cluster.apis]) stops.push(addLogSource(proc.name, { last: (n) => proc.log().split('\n').slice(-n) }));
    handle = await openDatabase({ databaseUrl: database.url });
    ctx = { db: handle.db, now: () => new Date() } as AppContext;
    owner = await createUserWithToken(ctx);
    member = await createUserWithToken(ctx);
    teamId = await createTeam(ctx, owner.user.id);
    await addMember(ctx, teamId, member.user.id, 'full-member');
    expect((await put(one.url, 'folders', b)).status).toBe(200);
    console.log(`scale-out cluster up in ${Date.now() - started} ms`);
  }, 300_000); // a process not ready within READY_TIMEOUT_MS (240 s) fails with its last output first

  afterAll(async () => {
    for (const stop of stops) stop();
    await handle?.close();
    await cluster?.stop();
    await database?.drop();
  }, 60_000);

  it('answers from either API server and through the balancer, one database identity, ready everywhere', async () => {
    const ids = new Set<string>();
    for (const base of [one.url, two.url, cluster.hub.url, cluster.balancerUrl]) {
      const ready = await call(base, 'GET', '/api/ready');
      expect(ready.status, base).toBe(200);
      ids.add((await call(base, 'GET', '/api/server')).json.data.id);
    }
    expect(ids.size).toBe(1);
    // The API servers send browsers to the hub for realtime.
    const vars = (await call(two.url, 'GET', '/api/app-vars')).json;
    expect(JSON.stringify(vars)).toContain(String(cluster.hub.port));
  });

  it('delivers a save through server 1 live to a client connected through server 2 (real pusher-js, the worker’s client)', async () => {
    const vars = (await call(two.url, 'GET', '/api/app-vars')).json;
    const broadcasting = vars.broadcasting ?? vars.data?.broadcasting;
    const events: RealtimeEvent[] = [];
    const errors: Error[] = [];
    const realtime: Realtime = createRealtime({
      appVars: { broadcasting },
      apiBase: two.url,
      getToken: () => member.token,
      fetch: (input, init) => fetch(input, init),
      onEvent: (event) => events.push(event),
      onError: (error) => errors.push(error),
      Pusher: Pusher as unknown as PusherConstructor,
      authBatchMs: 5,
      origin: null,
    });
    stops.push(() => realtime.stop());
    await realtime.subscribeBoard(teamId, b.id);
    const cursor = (await call(two.url, 'GET', `/api/${teamId}/changes?after=0&board_id=${b.id}`, { token: member.token })).json.cursor as number;

    const i = item(b.id, { name: 'Saved on server 1' });
    const sent = Date.now();
    expect((await put(one.url, 'items', i)).status).toBe(200);
    await waitFor(() => events.some((e) => e.scope === 'board' && e.boardId === b.id), 5000, 'the hub to deliver the save');
    const delivered = Date.now() - sent;
    expect(errors).toEqual([]);
    // The hub carries a content-free ping (decision 0090); the client reads the change through server 2.
    const changes = (await call(two.url, 'GET', `/api/${teamId}/changes?after=${cursor}&board_id=${b.id}`, { token: member.token })).json;
    expect(changes.data.map((c: { id: string }) => c.id)).toContain(i.id);
    console.log(`save on api-1 → event at a client of api-2: ${delivered} ms`);
  });

  it('gives gap-free /changes from either server while both write', async () => {
    const start = (await call(one.url, 'GET', `/api/${teamId}/changes?after=0&board_id=${b.id}`, { token: owner.token })).json.cursor as number;
    const saved: string[] = [];
    let writing = true;
    // Four writers, two on each server, each saving one item after the other.
    const writers = [one, two, one, two].map(async (server, w) => {
      for (let n = 0; n < 25; n += 1) {
        const i = item(b.id, { name: `w${w}-${n}` });
        const res = await put(server.url, 'items', i);
        expect(res.status, JSON.stringify(res.json)).toBe(200);
        saved.push(i.id);
      }
    });
    // A reader follows /changes meanwhile, asking the two servers in turn.
    const seen = new Set<string>();
    let cursor = start;
    let turn = 0;
    const reader = (async () => {
      while (writing || turn < 2) {
        const server = turn++ % 2 ? two : one;
        const page = (await call(server.url, 'GET', `/api/${teamId}/changes?after=${cursor}&board_id=${b.id}`, { token: owner.token })).json;
        expect(page.cursor).toBeGreaterThanOrEqual(cursor);
        for (const change of page.data) seen.add(change.id);
        cursor = page.cursor;
        await new Promise((r) => setTimeout(r, 5));
        if (!writing && !page.has_more) break;
      }
    })();
    await Promise.all(writers);
    writing = false;
    await reader;
    // One last read from each server: nothing new, nothing missing.
    for (const server of [one, two]) {
      const page = (await call(server.url, 'GET', `/api/${teamId}/changes?after=${cursor}&board_id=${b.id}`, { token: owner.token })).json;
      for (const change of page.data) seen.add(change.id);
    }
    const missing = saved.filter((id) => !seen.has(id));
    expect(saved.length).toBe(100);
    expect(missing).toEqual([]);
  });

  it('lets a session made on one server work on the other: refresh there, sign out here', async () => {
    const email = `scale-${newId().toLowerCase().replace(/[^a-z0-9]/g, '')}@example.test`;
    const password = 'a long enough password 42';
    const user = await handle.db
      .insertInto('users')
      .values({ email, name: 'Scaled', password_hash: await hashPassword(password), locale: 'en-US', theme: 2, preferences: JSON.stringify({}), recovery_codes: JSON.stringify([]), email_verified_at: new Date(), created_at: new Date(), updated_at: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const login = await call(one.url, 'POST', '/api/auth/login', { body: { email, password } });
    expect(login.status, JSON.stringify(login.json)).toBe(200);
    const token = login.json.access_token ?? login.json.data?.access_token;
    expect((await call(two.url, 'GET', '/api/me', { token })).status).toBe(200);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const refreshed = await call(two.url, 'POST', '/api/auth/refresh', { body: {}, headers: { cookie } });
    expect(refreshed.status, JSON.stringify(refreshed.json)).toBe(200);
    const fresh = refreshed.json.access_token ?? refreshed.json.data?.access_token;
    expect((await call(one.url, 'GET', '/api/me', { token: fresh })).status).toBe(200);
    expect((await call(one.url, 'POST', '/api/auth/logout', { token: fresh, body: {} })).status).toBeLessThan(300);
    expect((await call(two.url, 'GET', '/api/me', { token: fresh })).status).toBe(401);
    expect(user.id).toBeGreaterThan(0);
  });

  it('holds an idempotency key across servers: the retry on the other server gets the stored answer, the write lands once', async () => {
    const i = item(b.id, { name: 'Once' });
    const key = `scale-${newId()}`;
    const first = await put(one.url, 'items', i, owner.token, { 'x-idempotency-key': key });
    const again = await put(two.url, 'items', i, owner.token, { 'x-idempotency-key': key });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);
    // Both at once, with a fresh key, one on each server.
    const j = item(b.id, { name: 'Raced' });
    const raceKey = `scale-${newId()}`;
    const both = await Promise.all([put(one.url, 'items', j, owner.token, { 'x-idempotency-key': raceKey }), put(two.url, 'items', j, owner.token, { 'x-idempotency-key': raceKey })]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(both[1]!.json).toEqual(both[0]!.json);
    const { rows } = await sql<{ n: string }>`select count(*) as n from change_log where record_id in (${i.id}, ${j.id})`.execute(handle.db);
    expect(Number(rows[0]!.n)).toBe(2);
  });

  it('holds the login throttle across servers: guesses spread over both count together', async () => {
    const victim = await createUserWithToken(ctx);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, n) => call(n % 2 ? two.url : one.url, 'POST', '/api/auth/login', { body: { email: victim.user.email, password: `wrong guess ${n}` } })),
    );
    const judged = answers.filter((a) => a.status !== 429).length;
    // 5 failed logins per account and address in 15 minutes (decision 0093), whichever server took them.
    expect(judged).toBe(5);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(5);
  });

  it('runs the notifications consumer once in effect with three runners (hub and both API servers)', async () => {
    const i = item(b.id, { name: 'Mention me' });
    expect((await put(one.url, 'items', i)).status).toBe(200);
    const comment = { id: newId(), board_id: b.id, item_id: i.id, parent_id: null, text: { html: `<p>hello <span data-mention="${member.user.id}">@m</span></p>` } };
    expect((await put(two.url, 'comments', comment)).status).toBe(200);
    const notified = () => handle.db.selectFrom('notifications').select(['id']).where('user_id', '=', member.user.id).execute();
    await waitFor(async () => (await notified()).length > 0, 15_000, 'the mention notification', 100);
    // Let every runner have its passes over the same events.
    await new Promise((r) => setTimeout(r, 1500));
    expect(await notified()).toHaveLength(1);
    const follows = await handle.db.selectFrom('item_follows').select('user_id').where('item_id', '=', i.id).execute();
    expect(follows.map((f) => f.user_id).sort()).toEqual([owner.user.id, member.user.id].sort());
    // The delivery job made for it ran once.
    await waitFor(async () => (await sql<{ n: string }>`select count(*) as n from pgboss.job where name = 'notifications.deliver' and state = 'completed'`.execute(handle.db)).rows[0]!.n === '1', 10_000, 'the delivery job', 100);
    const { rows } = await sql<{ state: string; n: string }>`select state, count(*) as n from pgboss.job where name = 'notifications.deliver' group by state`.execute(handle.db);
    expect(rows.filter((r) => r.state !== 'completed')).toEqual([]);
    expect(rows.reduce((sum, r) => sum + Number(r.n), 0)).toBe(1);
  });

  it('delivers each webhook once in effect with three runners: one delivery id per change, whichever server saved it', async () => {
    const posts: { delivery: string; body: string }[] = [];
    const receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        posts.push({ delivery: String(req.headers['x-cairn-delivery'] ?? ''), body });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
      const hook = await call(one.url, 'PUT', `/api/${teamId}/hooks/scale-${newId().replace(/[^A-Za-z0-9_-]/g, 'x')}`, { token: owner.token, body: { url: hookUrl, events: ['item.created'] } });
      expect(hook.status, JSON.stringify(hook.json)).toBe(200);
      const items = Array.from({ length: 6 }, (_, n) => item(b.id, { name: `hooked ${n}` }));
      for (const [n, i] of items.entries()) expect((await put(n % 2 ? two.url : one.url, 'items', i)).status).toBe(200);
      const deliveriesOf = (id: string) => new Set(posts.filter((p) => p.body.includes(id)).map((p) => p.delivery));
      await waitFor(() => items.every((i) => deliveriesOf(i.id).size > 0), 20_000, 'a delivery of every item', 100);
      await new Promise((r) => setTimeout(r, 1500));
      // At least once on the wire, once in effect: one delivery id per change (receivers dedupe on it).
      for (const i of items) expect(deliveriesOf(i.id).size, i.id).toBe(1);
      console.log(`webhooks: ${posts.length} POSTs for ${items.length} changes`);
    } finally {
      receiver.close();
    }
  });

  it('shares uploads through the object store: uploaded on server 1, served by server 2', async () => {
    const files = attribute(b.id, { kind: 'attachments', name: 'Files' });
    expect((await put(one.url, 'attributes', files)).status).toBe(200);
    const i = item(b.id);
    expect((await put(one.url, 'items', i)).status).toBe(200);
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('shared bytes '.repeat(20))]), 'notes.txt');
    const up = await fetch(`${one.url}/api/${teamId}/attachments?item_id=${i.id}`, { method: 'POST', body: form, headers: { authorization: `Bearer ${owner.token}` } });
    expect(up.status).toBe(200);
    const { url: fileUrl } = ((await up.json()) as { data: { url: string } }).data;
    const down = await fetch(`${two.url}${fileUrl}`);
    expect(down.status).toBe(200);
    expect(await down.text()).toBe('shared bytes '.repeat(20));
  });

  it('exposes metrics on every process behind the token', async () => {
    expect((await fetch(`${one.url}/metrics`)).status).toBe(401);
    const hub = await (await fetch(`${cluster.hub.url}/metrics`, { headers: { authorization: `Bearer ${cluster.metricsToken}` } })).text();
    expect(hub).toMatch(/^cairn_realtime_connections \d+/m);
    const api = await (await fetch(`${one.url}/metrics`, { headers: { authorization: `Bearer ${cluster.metricsToken}` } })).text();
    expect(api).toMatch(/^cairn_sync_writes_total\{route="\/api\/:teamId\/items\/:id",outcome="ok"\} \d+/m);
    expect(api).not.toMatch(/^cairn_realtime_connections /m);
  });

  it('loses nothing when an API server is killed mid-batch: the retry with the same key lands once', async () => {
    const items = Array.from({ length: 400 }, (_, n) => item(b.id, { name: `batch ${n}` }));
    const key = `scale-kill-${newId()}`;
    const body = { transaction: `tx-${newId()}`, requests: items.map((i) => ({ method: 'put', route: `items/${i.id}`, payload: i })) };
    const headers = { 'x-idempotency-key': key };
    const first = call(one.url, 'POST', `/api/${teamId}/batch`, { token: owner.token, body, headers }).then(
      (r) => ({ ok: true as const, status: r.status }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    // Kill it while the batch is in flight (the request is sent; the answer has not come).
    await new Promise((r) => setTimeout(r, 60));
    await one.kill();
    const lost = await first;
    // Through the balancer, as the worker's queue retries: a network error (a kept-alive connection
    // that led to the dead server) is retried again, the same request with the same key.
    let retry: Awaited<ReturnType<typeof call>> | null = null;
    for (let attempt = 0; attempt < 5 && !retry; attempt += 1) {
      retry = await call(cluster.balancerUrl, 'POST', `/api/${teamId}/batch`, { token: owner.token, body, headers }).catch(() => null);
    }
    if (!retry) throw new Error('no retry reached a server');
    expect(retry.status, JSON.stringify(retry.json).slice(0, 300)).toBe(200);
    expect(retry.json).toHaveLength(400);
    const again = await call(two.url, 'POST', `/api/${teamId}/batch`, { token: owner.token, body, headers });
    expect(again.json).toEqual(retry.json);
    const { rows } = await sql<{ records: string; changes: string }>`
      select (select count(*) from records where id = any(${items.map((i) => i.id)})) as records,
             (select count(*) from change_log where record_id = any(${items.map((i) => i.id)})) as changes`.execute(handle.db);
    expect(rows[0]).toEqual({ records: '400', changes: '400' });
    console.log(`killed api-1 ${lost.ok ? `after it answered ${lost.status}` : 'before it answered'}; the retry landed once`);
  });
});
