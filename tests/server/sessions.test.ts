import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { codeAt } from '../../server/accounts/totp';
import Pusher from 'pusher-js';
import { createUserWithToken } from '../helpers/users';
import { createRealtime, type PusherConstructor, type Realtime, type RealtimeEvent } from '../../sync-worker/realtime';
import { addMember, board, item, teamWithRoles, type TeamFixture } from './sync-fixtures';

const DAY = 24 * 60 * 60 * 1000;

/**
 * Sessions (decision 0093 on top of 0010): refresh-token reuse ends the whole session, lost
 * answers still keep it, a session ends 90 days after sign-in whatever its refreshes, and changing
 * the email or enabling two-factor signs every other session out.
 */
describe('sessions', () => {
  let server: TestServer;
  let ipCounter = 0;
  const fromIp = () => ({ 'x-forwarded-for': `10.8.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}` });
  const post = (url: string, body?: unknown, token?: string) => api(server.app, 'POST', url, { body, token, headers: fromIp() });
  const me = async (token: string) => (await api(server.app, 'GET', '/api/me', { token })).statusCode;

  interface Pair {
    access: string;
    refresh: string;
  }
  /** A native sign-in (tokens in the body). */
  async function signIn(email: string, password: string): Promise<Pair> {
    const res = await post('/api/auth/login', { email, password, grantType: 'password' });
    expect(res.statusCode, res.body).toBe(200);
    return { access: res.json().access_token, refresh: res.json().refresh_token };
  }
  async function refresh(token: string) {
    const res = await post('/api/auth/refresh', { grantType: 'refresh_token', refresh_token: token });
    return { status: res.statusCode, body: res.json(), pair: res.statusCode === 200 ? ({ access: res.json().access_token, refresh: res.json().refresh_token } as Pair) : null };
  }
  async function signUp(email: string, password = 'a fine password') {
    const res = await post('/api/auth/register', { email, name: email.split('@')[0], password, grantType: 'password' });
    expect(res.statusCode, res.body).toBe(201);
    return { id: res.json().user.id as number, email, password, first: { access: res.json().access_token, refresh: res.json().refresh_token } as Pair };
  }

  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server.close());

  describe('refresh-token reuse', () => {
    it('ends the whole session when a replaced token comes back after its successor was used', async () => {
      const u = await signUp('reuse@example.test');
      const r1 = u.first;
      const r2 = (await refresh(r1.refresh)).pair!;
      const r3 = (await refresh(r2.refresh)).pair!;
      expect(await me(r3.access)).toBe(200);

      const replay = await refresh(r1.refresh);
      expect(replay.status).toBe(401);
      expect(replay.body).toEqual({ message: 'Your session has expired. Please sign in again.', type: 'session_expired' });
      // Every token of the session is dead now, the newest included.
      expect(await me(r3.access)).toBe(401);
      expect(await me(r2.access)).toBe(401);
      expect((await refresh(r3.refresh)).status).toBe(401);
      const row = await server.ctx.db.selectFrom('access_tokens').select('revoked_at').where('user_id', '=', u.id).executeTakeFirstOrThrow();
      expect(row.revoked_at).not.toBeNull();
      // Other sessions of the user are not touched.
      const other = await signIn(u.email, u.password);
      expect(await me(other.access)).toBe(200);
    });

    it('stops a stolen token and the real one from alternating: the first use of a retired branch ends the session', async () => {
      const u = await signUp('alternate@example.test');
      const stolen = u.first.refresh;
      const real = (await refresh(u.first.refresh)).pair!; // the owner refreshes
      const thief = (await refresh(stolen)).pair!; // the thief uses the copy (looks like a lost answer: allowed)
      const realNext = await refresh(real.refresh); // the owner carries on: the thief's branch is retired
      expect(realNext.status).toBe(200);
      expect((await refresh(thief.refresh)).status).toBe(401);
      expect(await me(realNext.pair!.access)).toBe(401);
      expect(await me(thief.access)).toBe(401);
      expect((await refresh(realNext.pair!.refresh)).status).toBe(401);
    });

    it('keeps a replaced token working while its successor is still unused (a lost answer)', async () => {
      const u = await signUp('lost@example.test');
      const lost = await refresh(u.first.refresh); // this answer never reached the client
      expect(lost.status).toBe(200);
      const retry = await refresh(u.first.refresh);
      expect(retry.status).toBe(200);
      expect(await me(retry.pair!.access)).toBe(200);
      const next = await refresh(retry.pair!.refresh);
      expect(next.status).toBe(200);
      expect(await me(next.pair!.access)).toBe(200);
    });

    it('lets two tabs refreshing with one cookie at once both keep a session, whichever cookie the browser keeps', async () => {
      const u = await signUp('tabs@example.test');
      const byCookie = (value: string) => server.app.inject({ method: 'POST', url: '/api/auth/refresh', cookies: { cairn_refresh: value } });
      const cookieOf = (res: { cookies: Array<{ name: string; value: string }> }) => res.cookies.find((c) => c.name === 'cairn_refresh')!.value;
      for (const keptIndex of [0, 1]) {
        const login = await server.app.inject({ method: 'POST', url: '/api/auth/login', headers: fromIp(), payload: { email: u.email, password: u.password } });
        const cookie = cookieOf(login);
        const answers = await Promise.all([byCookie(cookie), byCookie(cookie)]);
        expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
        for (const answer of answers) expect(await me(answer.json().access_token)).toBe(200);
        // The browser keeps one of the two cookies; with it the session carries on.
        const next = await byCookie(cookieOf(answers[keptIndex]!));
        expect(next.statusCode).toBe(200);
        expect(await me(next.json().access_token)).toBe(200);
        expect((await byCookie(cookieOf(next))).statusCode).toBe(200);
      }
    });
  });

  describe('absolute lifetime', () => {
    it('ends a session 90 days after sign-in however often it was refreshed', async () => {
      const u = await signUp('lifetime@example.test');
      let pair = u.first;
      for (let day = 29; day <= 87; day += 29) {
        server.advance(29 * DAY);
        const next = await refresh(pair.refresh);
        expect(next.status, `day ${day}`).toBe(200);
        pair = next.pair!;
        if (day === 87) {
          // What is left of the 90 days (less the test's own running time), not another 30.
          expect(next.body.refresh_expires_in).toBeLessThanOrEqual(3 * 24 * 60 * 60);
          expect(next.body.refresh_expires_in).toBeGreaterThan(3 * 24 * 60 * 60 - 120);
        }
      }
      server.advance(3 * DAY + 1000);
      const late = await refresh(pair.refresh);
      expect(late.status).toBe(401);
      expect(late.body.type).toBe('session_expired');
      // A fresh sign-in starts a new 90 days.
      const again = await signIn(u.email, u.password);
      expect((await refresh(again.refresh)).status).toBe(200);
    });
  });

  describe('other sessions end', () => {
    async function twoSessions(email: string) {
      const u = await signUp(email);
      const elsewhere = await signIn(u.email, u.password);
      expect(await post('/api/auth/reauthenticate', { password: u.password }, u.first.access).then((r) => r.statusCode)).toBe(200);
      return { u, here: u.first, elsewhere };
    }
    async function expectOnlyHereAlive(here: Pair, elsewhere: Pair) {
      expect(await me(elsewhere.access)).toBe(401);
      expect((await refresh(elsewhere.refresh)).status).toBe(401);
      expect(await me(here.access)).toBe(200);
      const next = await refresh(here.refresh);
      expect(next.status).toBe(200);
      expect(await me(next.pair!.access)).toBe(200);
    }

    it('when the email changes; the session that changed it keeps working', async () => {
      const { here, elsewhere } = await twoSessions('change-me@example.test');
      const res = await api(server.app, 'PUT', '/api/me/email', { token: here.access, body: { email: 'changed@example.test' } });
      expect(res.statusCode, res.body).toBe(200);
      await expectOnlyHereAlive(here, elsewhere);
    });

    it('when two-factor is turned on; the session that turned it on keeps working', async () => {
      const { here, elsewhere } = await twoSessions('tfa-on@example.test');
      const secret = (await post('/api/me/two-factor', undefined, here.access)).json().secret as string;
      // Starting the setup is not enough: sessions end when it is confirmed.
      expect(await me(elsewhere.access)).toBe(200);
      const ok = await post('/api/me/two-factor/confirm', { code: codeAt(secret, server.ctx.now()) }, here.access);
      expect(ok.statusCode, ok.body).toBe(200);
      await expectOnlyHereAlive(here, elsewhere);
    });
  });
});

/** A session that ends takes its realtime subscriptions with it (H1's endSubscriptions, decision 0090). */
describe('sessions: realtime ends with the session', () => {
  let server: TestServer;
  let t: TeamFixture;
  let url: string;
  let port: number;
  const stops: Array<() => void> = [];
  const b = board({ name: 'Session board' });
  let ipCounter = 0;
  const fromIp = () => ({ 'x-forwarded-for': `10.7.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}` });
  const post = (url: string, body?: unknown, token?: string) => api(server.app, 'POST', url, { body, token, headers: fromIp() });

  async function save(body: Record<string, unknown>) {
    const res = await api(server.app, 'PUT', `/api/${t.teamId}/items/${String(body.id)}`, { token: t.owner.token, body });
    expect(res.statusCode, res.body).toBe(200);
    return String(body.id);
  }
  /** The worker's realtime client subscribed to the board with this access token; the ids that arrive. */
  async function reader(token: string) {
    const ids = new Set<string>();
    const realtime: Realtime = createRealtime({
      appVars: { broadcasting: { key: 'cairn-key', host: '127.0.0.1', port, useTLS: false } },
      apiBase: url,
      getToken: () => token,
      fetch: (input, init) => fetch(input, init),
      onEvent: (event: RealtimeEvent) => {
        const id = (event.data as { id?: string } | null)?.id;
        if (id) ids.add(id);
      },
      onError: () => {},
      Pusher: Pusher as unknown as PusherConstructor,
      authBatchMs: 5,
      origin: null,
    });
    stops.push(() => realtime.stop());
    await realtime.subscribeBoard(t.teamId, b.id);
    return ids;
  }
  /** Saves an item and waits until the witness has it; then the others had their chance too. */
  async function publishAndSettle(witness: Set<string>) {
    const id = await save(item(b.id, { name: 'probe' }));
    const deadline = Date.now() + 5000;
    while (!witness.has(id)) {
      if (Date.now() > deadline) throw new Error('the witness never got the record');
      await new Promise((r) => setTimeout(r, 10));
    }
    await new Promise((r) => setTimeout(r, 300));
    return id;
  }

  beforeAll(async () => {
    server = await createTestServer({ realtime: true });
    url = await server.listen();
    port = Number(new URL(url).port);
    t = await teamWithRoles(server.ctx);
    const res = await api(server.app, 'PUT', `/api/${t.teamId}/folders/${b.id}`, { token: t.owner.token, body: b });
    expect(res.statusCode, res.body).toBe(200);
  });
  afterAll(async () => {
    for (const stop of stops.splice(0)) stop();
    await server.close();
  });

  it('a refresh-token replay ends the realtime subscriptions of the session', async () => {
    const witness = await reader(t.owner.token);
    const member = await createUserWithToken(server.ctx);
    await addMember(server.ctx, t.teamId, member.user.id, 'full-member');
    const r1 = member.tokens.refresh_token;
    const r2 = (await post('/api/auth/refresh', { refresh_token: r1 })).json();
    const r3 = (await post('/api/auth/refresh', { refresh_token: r2.refresh_token })).json();
    const live = await reader(r3.access_token);
    expect(live.has(await publishAndSettle(witness))).toBe(true);

    expect((await post('/api/auth/refresh', { refresh_token: r1 })).statusCode).toBe(401);
    expect(live.has(await publishAndSettle(witness))).toBe(false);
  });

  it('changing the email ends the realtime subscriptions of the other sessions, not of this one', async () => {
    const witness = await reader(t.owner.token);
    const signed = await post('/api/auth/register', { email: 'rt-email@example.test', name: 'Rt', password: 'a fine password' });
    expect(signed.statusCode, signed.body).toBe(201);
    await addMember(server.ctx, t.teamId, signed.json().user.id, 'full-member');
    const here = signed.json().access_token as string;
    const elsewhere = (await post('/api/auth/login', { email: 'rt-email@example.test', password: 'a fine password' })).json().access_token as string;
    const hereIds = await reader(here);
    const elsewhereIds = await reader(elsewhere);
    await publishAndSettle(witness);

    expect((await post('/api/auth/reauthenticate', { password: 'a fine password' }, here)).statusCode).toBe(200);
    expect((await api(server.app, 'PUT', '/api/me/email', { token: here, body: { email: 'rt-email-2@example.test' } })).statusCode).toBe(200);
    const after = await publishAndSettle(witness);
    expect(hereIds.has(after)).toBe(true);
    expect(elsewhereIds.has(after)).toBe(false);
  });
});
