import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';

/** Registration, login, refresh, logout and their bad inputs, through the real endpoints. */
/** Flood tests run one scrypt hash per attempt: on a busy 2-core machine that takes a while. */
describe('accounts: register, login, refresh, logout', () => {
  let server: TestServer;
  let ipCounter = 0;
  /** Each test speaks from its own address so the per-IP throttles do not leak between tests. */
  const fromIp = () => ({ 'x-forwarded-for': `10.0.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}` });

  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server.close());

  const register = (body: Record<string, unknown>, headers = fromIp()) => api(server.app, 'POST', '/api/auth/register', { body, headers });
  const login = (body: Record<string, unknown>, headers = fromIp()) => api(server.app, 'POST', '/api/auth/login', { body, headers });

  it('registers a user with a free subscription and a verification mail', async () => {
    const res = await register({ email: 'Ann@Example.test', name: 'Ann', password: 'correct horse', locale: 'en-US', source: 'ad' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.user).toMatchObject({ email: 'ann@example.test', name: 'Ann', email_verified: false, has_password: true });
    expect(body.access_token).toEqual(expect.any(String));
    expect(body.refresh_token).toBeUndefined();
    expect(res.cookies.find((c) => c.name === 'cairn_refresh')).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth' });

    const sub = await server.ctx.db.selectFrom('subscriptions').selectAll().where('user_id', '=', body.user.id).executeTakeFirstOrThrow();
    expect(sub.deal).toBe('free');
    expect(sub.limits).toMatchObject({ workspaces: 1 });
    const mail = (await server.outbox()).find((m) => m.to === 'ann@example.test');
    expect(mail?.text).toMatch(/\/verify-email\?token=/);

    const me = await api(server.app, 'GET', '/api/me', { token: body.access_token });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe('ann@example.test');
  });

  it('refuses a duplicate email in any case', async () => {
    const res = await register({ email: 'ANN@example.test', name: 'Other', password: 'another password' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ message: 'The email has already been taken.', type: 'validation' });
  });

  it('refuses a short password, a bad email and missing fields with every problem listed', async () => {
    const short = await register({ email: 'bob@example.test', name: 'Bob', password: 'short' });
    expect(short.statusCode).toBe(422);
    expect(short.json().data).toEqual(['password: must be at least 8 characters']);

    const bad = await register({ email: 'not-an-email', name: '', password: 'long enough' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().data).toEqual(expect.arrayContaining(['email: must be a valid email address', 'name: is required']));

    const missing = await register({});
    expect(missing.statusCode).toBe(422);
    expect(missing.json().message).toMatch(/^Validation Error: /);
    expect(missing.json().data).toEqual(expect.arrayContaining(['email: is required', 'name: is required', 'password: is required']));

    const locale = await register({ email: 'bob@example.test', name: 'Bob', password: 'long enough', locale: 'xx-YY' });
    expect(locale.statusCode).toBe(422);
    expect(locale.json().data[0]).toMatch(/^locale: must be one of the supported languages/);
  });

  it('answers malformed JSON with a 400 in the error shape', async () => {
    const res = await server.app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload: '{"email": ' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'The request body is not valid JSON.', type: 'bad_request' });
  });

  it('logs in with the token record and intended; native clients get the refresh token in the body', async () => {
    const web = await login({ email: 'ann@example.test', password: 'correct horse' });
    expect(web.statusCode).toBe(200);
    expect(web.json()).toMatchObject({ intended: '/home', expires_in: 3600, refresh_expires_in: 30 * 24 * 3600 });
    expect(web.json().refresh_token).toBeUndefined();
    expect(new Date(web.json().created_at).toISOString()).toBe(web.json().created_at);

    const native = await login({ email: 'ann@example.test', password: 'correct horse', grantType: 'password', intended: '/team/3' });
    expect(native.json()).toMatchObject({ intended: '/team/3', refresh_token: expect.any(String), access_token: expect.any(String) });
    expect(native.cookies.find((c) => c.name === 'cairn_refresh')).toBeUndefined();

    const offsite = await login({ email: 'ann@example.test', password: 'correct horse', intended: '//evil.test/x' });
    expect(offsite.statusCode).toBe(422);
  });

  it('gives a wrong password and an unknown email the same answer', async () => {
    const wrong = await login({ email: 'ann@example.test', password: 'wrong password' });
    const unknown = await login({ email: 'nobody@example.test', password: 'wrong password' });
    expect(wrong.statusCode).toBe(422);
    expect(unknown.statusCode).toBe(422);
    expect(wrong.json()).toEqual({ message: 'These credentials do not match our records.', type: 'invalid_credentials' });
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('does not let a pending (invited, password-less) account log in', async () => {
    const { createUser } = await import('../../server/accounts/service');
    await createUser(server.ctx, { email: 'pending@example.test', name: 'Pending', password: null });
    const res = await login({ email: 'pending@example.test', password: 'anything at all' });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('These credentials do not match our records.');
    const taken = await register({ email: 'pending@example.test', name: 'Someone', password: 'long enough' });
    expect(taken.statusCode).toBe(422);
  });

  it('throttles a login flood on one account from one address, without locking the owner out elsewhere', async () => {
    await register({ email: 'flood@example.test', name: 'Flood', password: 'flood password' });
    const attacker = fromIp();
    for (let i = 0; i < 5; i++) expect((await login({ email: 'flood@example.test', password: `guess ${i}` }, attacker)).statusCode).toBe(422);
    const blocked = await login({ email: 'flood@example.test', password: 'flood password' }, attacker);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ type: 'rate_limited', message: expect.stringMatching(/^Too many attempts\. Please try again in \d+ (seconds|minutes)\.$/) });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login({ email: 'flood@example.test', password: 'flood password' })).statusCode).toBe(200);
  }, 120_000);

  it('caps guesses on one account from many addresses, until the window passes', async () => {
    await register({ email: 'spread@example.test', name: 'Spread', password: 'spread password' });
    for (let i = 0; i < 20; i++) expect((await login({ email: 'spread@example.test', password: `guess ${i}` })).statusCode).toBe(422);
    expect((await login({ email: 'spread@example.test', password: 'spread password' })).statusCode).toBe(429);
    server.advance(15 * 60 * 1000 + 1000);
    expect((await login({ email: 'spread@example.test', password: 'spread password' })).statusCode).toBe(200);
  }, 120_000);

  it('throttles a login flood from one address across many accounts', async () => {
    const headers = fromIp();
    for (let i = 0; i < 30; i++) expect((await login({ email: `spray${i}@example.test`, password: 'whatever1' }, headers)).statusCode).toBe(422);
    const blocked = await login({ email: 'ann@example.test', password: 'correct horse' }, headers);
    expect(blocked.statusCode).toBe(429);
    // Another address is not affected.
    expect((await login({ email: 'ann@example.test', password: 'correct horse' })).statusCode).toBe(200);
  }, 120_000);

  it('refreshes from the cookie, rotating the refresh token', async () => {
    const res = await login({ email: 'ann@example.test', password: 'correct horse' });
    const cookie = res.cookies.find((c) => c.name === 'cairn_refresh')!.value;
    const refreshed = await server.app.inject({ method: 'POST', url: '/api/auth/refresh', cookies: { cairn_refresh: cookie } });
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.json()).toMatchObject({ access_token: expect.any(String), expires_in: 3600 });
    const next = refreshed.cookies.find((c) => c.name === 'cairn_refresh')!.value;
    expect(next).not.toBe(cookie);
    // The replaced access token works until its own expiry (another tab may hold it); the new one works.
    expect((await api(server.app, 'GET', '/api/me', { token: res.json().access_token })).statusCode).toBe(200);
    expect((await api(server.app, 'GET', '/api/me', { token: refreshed.json().access_token })).statusCode).toBe(200);
    // Using the new refresh token proves it arrived: the old one is retired, and so is the access
    // token two rotations back.
    const again = await server.app.inject({ method: 'POST', url: '/api/auth/refresh', cookies: { cairn_refresh: next } });
    expect(again.statusCode).toBe(200);
    expect((await api(server.app, 'GET', '/api/me', { token: res.json().access_token })).statusCode).toBe(401);
    const replay = await server.app.inject({ method: 'POST', url: '/api/auth/refresh', cookies: { cairn_refresh: cookie } });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ message: 'Your session has expired. Please sign in again.', type: 'session_expired' });
  });

  it('keeps the session when a refresh answer is lost: the cookie that was sent still works', async () => {
    const res = await login({ email: 'ann@example.test', password: 'correct horse' });
    const cookie = res.cookies.find((c) => c.name === 'cairn_refresh')!.value;
    const refresh = (value: string) => server.app.inject({ method: 'POST', url: '/api/auth/refresh', cookies: { cairn_refresh: value } });
    // Two answers lost in a row (the browser never stored their cookies).
    const lost1 = await refresh(cookie);
    const lost2 = await refresh(cookie);
    expect([lost1.statusCode, lost2.statusCode]).toEqual([200, 200]);
    // The access token the tab still holds keeps working until it expires.
    expect((await api(server.app, 'GET', '/api/me', { token: lost2.json().access_token })).statusCode).toBe(200);
    const arrived = await refresh(cookie);
    expect(arrived.statusCode).toBe(200);
    const newest = arrived.cookies.find((c) => c.name === 'cairn_refresh')!.value;
    expect((await api(server.app, 'GET', '/api/me', { token: arrived.json().access_token })).statusCode).toBe(200);
    // Once the newest is used, everything older stops working, the lost ones included.
    expect((await refresh(newest)).statusCode).toBe(200);
    expect((await refresh(cookie)).statusCode).toBe(401);
    expect((await refresh(lost1.cookies.find((c) => c.name === 'cairn_refresh')!.value)).statusCode).toBe(401);
  });

  it('lets two tabs refreshing with the same cookie at once both keep a working session', async () => {
    const res = await login({ email: 'ann@example.test', password: 'correct horse' });
    const cookie = res.cookies.find((c) => c.name === 'cairn_refresh')!.value;
    const [a, b] = await Promise.all([1, 2].map(() => server.app.inject({ method: 'POST', url: '/api/auth/refresh', cookies: { cairn_refresh: cookie } })));
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    for (const answer of [a, b]) {
      expect((await api(server.app, 'GET', '/api/me', { token: answer.json().access_token })).statusCode).toBe(200);
    }
    // Whichever cookie the browser kept, the next refresh works.
    const kept = [a, b].map((r) => r.cookies.find((c) => c.name === 'cairn_refresh')!.value);
    const fromA = await server.app.inject({ method: 'POST', url: '/api/auth/refresh', cookies: { cairn_refresh: kept[0] } });
    expect(fromA.statusCode).toBe(200);
  });

  it('does not let a revoked session come back through an old refresh token', async () => {
    const res = await login({ email: 'ann@example.test', password: 'correct horse' });
    const cookie = res.cookies.find((c) => c.name === 'cairn_refresh')!.value;
    const refreshed = await server.app.inject({ method: 'POST', url: '/api/auth/refresh', cookies: { cairn_refresh: cookie } });
    await server.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { authorization: `Bearer ${refreshed.json().access_token}` } });
    expect((await server.app.inject({ method: 'POST', url: '/api/auth/refresh', cookies: { cairn_refresh: cookie } })).statusCode).toBe(401);
    expect((await api(server.app, 'GET', '/api/me', { token: res.json().access_token })).statusCode).toBe(401);
    // Where guests are welcome, a dead token is still a 401 (the client refreshes), not a guest's answer.
    expect((await api(server.app, 'GET', '/api/subscription', { token: res.json().access_token })).statusCode).toBe(401);
    const guest = await api(server.app, 'GET', '/api/subscription');
    expect([guest.statusCode, guest.json()]).toEqual([200, { data: [] }]);
    // Signing out with it still finishes.
    expect((await api(server.app, 'POST', '/api/auth/logout', { token: res.json().access_token })).statusCode).toBe(200);
  });

  it('refreshes a native session from the body', async () => {
    const res = await login({ email: 'ann@example.test', password: 'correct horse', grantType: 'password' });
    const refreshed = await api(server.app, 'POST', '/api/auth/refresh', { body: { grantType: 'refresh_token', refresh_token: res.json().refresh_token } });
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.json().refresh_token).toEqual(expect.any(String));
    expect(refreshed.json().refresh_token).not.toBe(res.json().refresh_token);
  });

  it('refuses a refresh without a token, and after the refresh lifetime', async () => {
    const none = await api(server.app, 'POST', '/api/auth/refresh', { body: {} });
    expect(none.statusCode).toBe(401);
    const res = await login({ email: 'ann@example.test', password: 'correct horse', grantType: 'password' });
    // The access token expires after an hour.
    server.advance(60 * 60 * 1000 + 1000);
    expect((await api(server.app, 'GET', '/api/me', { token: res.json().access_token })).statusCode).toBe(401);
    server.advance(30 * 24 * 60 * 60 * 1000);
    const late = await api(server.app, 'POST', '/api/auth/refresh', { body: { refresh_token: res.json().refresh_token } });
    expect(late.statusCode).toBe(401);
    expect(late.json().type).toBe('session_expired');
  });

  it('logs out: the session is revoked, the cookie cleared, and a redirect given', async () => {
    const res = await login({ email: 'ann@example.test', password: 'correct horse' });
    const token = res.json().access_token;
    const cookie = res.cookies.find((c) => c.name === 'cairn_refresh')!.value;
    const out = await server.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { authorization: `Bearer ${token}` }, cookies: { cairn_refresh: cookie } });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ redirect: '/login' });
    const cleared = out.cookies.find((c) => c.name === 'cairn_refresh')!;
    expect(cleared.value).toBe('');
    expect((await api(server.app, 'GET', '/api/me', { token })).statusCode).toBe(401);
    const refresh = await server.app.inject({ method: 'POST', url: '/api/auth/refresh', cookies: { cairn_refresh: cookie } });
    expect(refresh.statusCode).toBe(401);
  });

  it('logs out a native session by its refresh token alone', async () => {
    const res = await login({ email: 'ann@example.test', password: 'correct horse', grantType: 'password' });
    const out = await api(server.app, 'POST', '/api/auth/logout', { body: { refresh_token: res.json().refresh_token } });
    expect(out.statusCode).toBe(200);
    expect((await api(server.app, 'GET', '/api/me', { token: res.json().access_token })).statusCode).toBe(401);
  });
});
