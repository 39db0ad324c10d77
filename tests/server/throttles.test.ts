import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { createJobs } from '../../server/jobs/index';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { codeAt } from '../../server/accounts/totp';
import { DatabaseThrottle } from '../../server/accounts/rate-limit';
import { board, teamWithRoles, type TeamFixture } from './sync-fixtures';

/**
 * Throttles that hold (decision 0093): a guess is counted before it is judged, so a burst of
 * parallel wrong guesses gets at most `limit` answers and 429 for the rest; and the counters live
 * in the database, so two API servers on one database share them.
 */
describe('throttles', () => {
  let server: TestServer;
  /** A second API server on the same database (another process behind the load balancer). */
  let second: FastifyInstance;
  let t: TeamFixture;
  let ipCounter = 0;
  const newIp = () => `10.9.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
  const post = (url: string, body: unknown, opts: { token?: string; ip?: string; app?: FastifyInstance } = {}) =>
    api(opts.app ?? server.app, 'POST', url, { body, token: opts.token, headers: { 'x-forwarded-for': opts.ip ?? newIp() } });

  async function signUp(email: string, password = 'a fine password') {
    const res = await post('/api/auth/register', { email, name: email.split('@')[0], password });
    expect(res.statusCode, res.body).toBe(201);
    return { token: res.json().access_token as string, id: res.json().user.id as number, email, password };
  }
  const reauthenticate = async (u: { token: string; password: string }) => expect((await post('/api/auth/reauthenticate', { password: u.password }, { token: u.token })).statusCode).toBe(200);

  /** Starts and confirms two-factor for a user; returns the secret and the recovery codes. */
  async function enableTwoFactor(u: { token: string; password: string }) {
    await reauthenticate(u);
    const secret = (await post('/api/me/two-factor', undefined, { token: u.token })).json().secret as string;
    const ok = await post('/api/me/two-factor/confirm', { code: codeAt(secret, server.ctx.now()) }, { token: u.token });
    expect(ok.statusCode, ok.body).toBe(200);
    return { secret, recovery: ok.json().recovery_codes as string[] };
  }
  /** A six-digit code that is not the current one (nor a neighbour's). */
  function wrongCode(secret: string) {
    const now = server.ctx.now().getTime();
    const valid = new Set([-30_000, 0, 30_000].map((d) => codeAt(secret, new Date(now + d))));
    for (let n = 0; ; n++) {
      const code = String(n).padStart(6, '0');
      if (!valid.has(code)) return code;
    }
  }

  /** Fires the requests at once and counts the answers by status. */
  async function burst<R extends { statusCode: number }>(requests: Array<() => Promise<R>>) {
    const answers = await Promise.all(requests.map((send) => send()));
    const counts: Record<number, number> = {};
    for (const a of answers) counts[a.statusCode] = (counts[a.statusCode] ?? 0) + 1;
    return { counts, answers };
  }
  const times = <T,>(n: number, make: (i: number) => T) => Array.from({ length: n }, (_, i) => make(i));

  beforeAll(async () => {
    server = await createTestServer();
    // A second API server on the same database has its own job queue (each registers the consumers).
    const kind = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
    second = await buildApp({ ...server.ctx, jobs: createJobs(server.ctx.db, { now: server.ctx.now, kind }) }, { logger: false });
    t = await teamWithRoles(server.ctx);
  });
  afterAll(async () => {
    await second?.close();
    await server?.close();
  });

  describe('a burst of parallel wrong guesses gets at most the limit judged', () => {
    it('login: 12 wrong passwords from one address on one account → 5 judged, 7 refused (429 with Retry-After)', async () => {
      const u = await signUp('burst-login@example.test');
      const ip = newIp();
      const { counts, answers } = await burst(times(12, (i) => () => post('/api/auth/login', { email: u.email, password: `wrong guess ${i}` }, { ip })));
      expect(counts).toEqual({ 422: 5, 429: 7 });
      const refused = answers.find((a) => a.statusCode === 429)!;
      expect(refused.json()).toMatchObject({ type: 'rate_limited', message: expect.stringMatching(/^Too many attempts\. Please try again in \d+ (seconds|minutes)\.$/) });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // The owner, from elsewhere, still signs in; a success there does not reopen this address.
      expect((await post('/api/auth/login', { email: u.email, password: u.password })).statusCode).toBe(200);
      expect((await post('/api/auth/login', { email: u.email, password: u.password }, { ip })).statusCode).toBe(429);
    }, 120_000);

    it('two-factor at login: 12 wrong TOTP codes with the right password → 5 judged, 7 refused', async () => {
      const u = await signUp('burst-totp@example.test');
      const { secret } = await enableTwoFactor(u);
      const ip = newIp();
      const { counts } = await burst(times(12, () => () => post('/api/auth/login', { email: u.email, password: u.password, totp: wrongCode(secret) }, { ip })));
      expect(counts).toEqual({ 422: 5, 429: 7 });
    }, 120_000);

    it('two-factor at login: 12 wrong recovery codes → 5 judged, 7 refused', async () => {
      const u = await signUp('burst-recovery@example.test');
      await enableTwoFactor(u);
      const ip = newIp();
      const { counts } = await burst(times(12, (i) => () => post('/api/auth/login', { email: u.email, password: u.password, recoveryCode: `aaaaa-${String(i).padStart(5, '0')}` }, { ip })));
      expect(counts).toEqual({ 422: 5, 429: 7 });
    }, 120_000);

    it('two-factor confirmation: 12 wrong codes → 5 judged, 7 refused', async () => {
      const u = await signUp('burst-confirm@example.test');
      await reauthenticate(u);
      const secret = (await post('/api/me/two-factor', undefined, { token: u.token })).json().secret as string;
      const { counts } = await burst(times(12, () => () => post('/api/me/two-factor/confirm', { code: wrongCode(secret) }, { token: u.token })));
      expect(counts).toEqual({ 422: 5, 429: 7 });
      // The right code is refused too until the window passes.
      expect((await post('/api/me/two-factor/confirm', { code: codeAt(secret, server.ctx.now()) }, { token: u.token })).statusCode).toBe(429);
    }, 120_000);

    it('reauthentication: 12 wrong passwords → 5 judged, 7 refused', async () => {
      const u = await signUp('burst-reauth@example.test');
      const { counts } = await burst(times(12, (i) => () => post('/api/auth/reauthenticate', { password: `wrong guess ${i}` }, { token: u.token })));
      expect(counts).toEqual({ 422: 5, 429: 7 });
    }, 120_000);

    it('password change: 12 wrong current passwords → 5 judged, 7 refused', async () => {
      const u = await signUp('burst-change@example.test');
      const { counts } = await burst(
        times(12, (i) => () => api(server.app, 'PUT', '/api/me/password', { token: u.token, body: { current_password: `wrong guess ${i}`, password: 'a new fine password' } })),
      );
      expect(counts).toEqual({ 422: 5, 429: 7 });
    }, 120_000);

    it('board password: 15 wrong guesses from one address → 10 judged, 5 refused; the right one waits too', async () => {
      const target = board({ is_public: true });
      expect((await api(server.app, 'PUT', `/api/${t.teamId}/folders/${target.id}`, { token: t.owner.token, body: target })).statusCode).toBe(200);
      expect((await api(server.app, 'PUT', `/api/${t.teamId}/boards/${target.id}/password`, { token: t.owner.token, body: { password: 'sesame' } })).statusCode).toBe(200);
      const ip = newIp();
      const read = (password: string) =>
        api(server.app, 'GET', `/api/${t.teamId}/items?board_id=${target.id}`, { headers: { 'x-forwarded-for': ip, 'x-authorization-password': encodeURIComponent(password) } });
      const { counts, answers } = await burst(times(15, (i) => () => read(`guess ${i}`)));
      expect(counts).toEqual({ 401: 10, 429: 5 });
      expect(answers.find((a) => a.statusCode === 429)!.json()).toEqual({ message: 'Too many wrong passwords. Please try again later.', type: 'rate_limited' });
      expect((await read('sesame')).statusCode).toBe(429);
      // Another address is not affected, and a right password does not use up a guess.
      const other = newIp();
      const readFrom = (password: string) =>
        api(server.app, 'GET', `/api/${t.teamId}/items?board_id=${target.id}`, { headers: { 'x-forwarded-for': other, 'x-authorization-password': encodeURIComponent(password) } });
      expect((await readFrom('sesame')).statusCode).toBe(200);
    }, 120_000);

    it('password reset: 15 bad links from one address → 10 judged, 5 refused', async () => {
      const ip = newIp();
      const { counts } = await burst(times(15, (i) => () => post('/api/auth/reset-password', { token: `not-a-token-${i}`, email: 'nobody@example.test', password: 'a new fine password' }, { ip })));
      expect(counts).toEqual({ 422: 10, 429: 5 });
    }, 120_000);

    it('password reset mails: 8 parallel requests for one address → 3 sent, 5 refused', async () => {
      await signUp('burst-forgot@example.test');
      const { counts } = await burst(times(8, () => () => post('/api/auth/forgot-password', { email: 'burst-forgot@example.test' })));
      expect(counts).toEqual({ 200: 3, 429: 5 });
      expect((await server.outbox()).filter((m) => m.to === 'burst-forgot@example.test' && m.text.includes('/password/reset/'))).toHaveLength(3);
    }, 120_000);
  });

  describe('two API servers on one database share the counters', () => {
    it('login guesses split across both servers add up to one limit', async () => {
      const u = await signUp('shared-login@example.test');
      const ip = newIp();
      const { counts } = await burst(times(12, (i) => () => post('/api/auth/login', { email: u.email, password: `wrong guess ${i}` }, { ip, app: i % 2 ? second : server.app })));
      expect(counts).toEqual({ 422: 5, 429: 7 });
      // One after the other too: the counter the first server filled refuses on the second.
      expect((await post('/api/auth/login', { email: u.email, password: u.password }, { ip, app: second })).statusCode).toBe(429);
    }, 120_000);

    it('reset mails, reset links, two-factor confirmations and board passwords count on both servers', async () => {
      await signUp('shared-forgot@example.test');
      const forgot = (app: FastifyInstance) => post('/api/auth/forgot-password', { email: 'shared-forgot@example.test' }, { app });
      expect([(await forgot(server.app)).statusCode, (await forgot(server.app)).statusCode, (await forgot(second)).statusCode, (await forgot(second)).statusCode]).toEqual([
        200, 200, 200, 429,
      ]);

      const resetIp = newIp();
      const reset = (app: FastifyInstance, i: number) =>
        post('/api/auth/reset-password', { token: `not-a-token-${i}`, email: 'nobody@example.test', password: 'a new fine password' }, { ip: resetIp, app });
      const resets = [];
      for (let i = 0; i < 11; i++) resets.push((await reset(i < 5 ? server.app : second, i)).statusCode);
      expect(resets).toEqual([...times(10, () => 422), 429]);

      const u = await signUp('shared-confirm@example.test');
      await reauthenticate(u);
      const secret = (await post('/api/me/two-factor', undefined, { token: u.token })).json().secret as string;
      const confirm = (app: FastifyInstance) => post('/api/me/two-factor/confirm', { code: wrongCode(secret) }, { token: u.token, app });
      const statuses = [];
      for (const app of [server.app, server.app, server.app, second, second, second]) statuses.push((await confirm(app)).statusCode);
      expect(statuses).toEqual([422, 422, 422, 422, 422, 429]);

      const target = board({ is_public: true });
      expect((await api(server.app, 'PUT', `/api/${t.teamId}/folders/${target.id}`, { token: t.owner.token, body: target })).statusCode).toBe(200);
      expect((await api(server.app, 'PUT', `/api/${t.teamId}/boards/${target.id}/password`, { token: t.owner.token, body: { password: 'sesame' } })).statusCode).toBe(200);
      const ip = newIp();
      const guess = (app: FastifyInstance, i: number) =>
        api(app, 'GET', `/api/${t.teamId}/items?board_id=${target.id}`, { headers: { 'x-forwarded-for': ip, 'x-authorization-password': `guess-${i}` } });
      const guesses = [];
      for (let i = 0; i < 11; i++) guesses.push((await guess(i < 6 ? server.app : second, i)).statusCode);
      expect(guesses).toEqual([...times(10, () => 401), 429]);
    }, 120_000);
  });

  describe('the database throttle', () => {
    it('is a sliding window: it says how long to wait, and a slot given back or a window passed opens it', async () => {
      let at = Date.UTC(2030, 0, 1);
      const throttle = new DatabaseThrottle(server.ctx.db, () => new Date(at));
      const rule = { max: 3, windowMs: 60_000 };
      const taken = [];
      for (let i = 0; i < 3; i++) {
        taken.push(await throttle.take('unit:k', rule));
        at += 10_000;
      }
      expect(taken.every((s) => s.allowed)).toBe(true);
      expect(await throttle.take('unit:k', rule)).toEqual({ allowed: false, key: 'unit:k', retryAfterMs: 30_000 });
      expect((await throttle.take('unit:other', rule)).allowed).toBe(true);
      // Giving one back frees exactly one slot.
      await throttle.giveBack(taken[2]!);
      expect((await throttle.take('unit:k', rule)).allowed).toBe(true);
      expect((await throttle.take('unit:k', rule)).allowed).toBe(false);
      // The oldest hit leaves the window after a minute.
      at += 30_000;
      expect((await throttle.take('unit:k', rule)).allowed).toBe(true);
      await throttle.clear('unit:k');
      expect((await server.ctx.db.selectFrom('throttle_hits').select('key').where('key', '=', 'unit:k').execute()).length).toBe(0);
    });

    it('sweeps rows whose window has passed', async () => {
      let at = Date.UTC(2031, 0, 1);
      const throttle = new DatabaseThrottle(server.ctx.db, () => new Date(at));
      await throttle.take('unit:old', { max: 3, windowMs: 60_000 });
      await throttle.take('unit:young', { max: 3, windowMs: 60 * 60_000 });
      at += 2 * 60_000;
      await throttle.sweep();
      const keys = (await server.ctx.db.selectFrom('throttle_hits').select('key').where('key', 'like', 'unit:%').execute()).map((r) => r.key);
      expect(keys).not.toContain('unit:old');
      expect(keys).toContain('unit:young');
    });
  });
});
