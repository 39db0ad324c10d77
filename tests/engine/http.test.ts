import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nanoid } from 'nanoid';
import { Messages } from '../../schema/messages';
import { ManualClock } from '../../sync-worker/clock';
import { Emitter } from '../../sync-worker/events';
import { HttpClient, NetworkError } from '../../sync-worker/http';
import { expiresAt, refreshableUntil, tokenState, validateTokenRecord } from '../../sync-worker/token';
import { createUserWithToken } from '../helpers/users';
import { issueTokens } from '../../server/auth/tokens';
import { createClient, createWorld, newItem, serverCopy, wire, type World } from './harness';

/** Token record rules, refresh before requests and session expiry, against the real server. */

describe('token record', () => {
  it('must contain access_token', () => {
    expect(() => validateTokenRecord({ expires_in: 10 })).toThrow(Messages.missingAccessToken);
    expect(() => validateTokenRecord(null)).toThrow(Messages.missingAccessToken);
    expect(validateTokenRecord({ access_token: 'a', expires_in: 10, extra: 1 })).toEqual({ access_token: 'a', expires_in: 10, refresh_expires_in: undefined, refresh_token: undefined, created_at: undefined });
  });

  it('is valid until expiry minus 5 s, then refreshable until the refresh lifetime minus 5 s, then expired', () => {
    const created = Date.UTC(2026, 0, 1);
    const record = { access_token: 'a', expires_in: 60, refresh_expires_in: 3600, created_at: new Date(created).toISOString() };
    expect(expiresAt(record, 0)).toBe(created + 55_000);
    expect(refreshableUntil(record, 0)).toBe(created + 3_595_000);
    expect(tokenState(record, 0, created + 54_999)).toBe('valid');
    expect(tokenState(record, 0, created + 55_000)).toBe('refresh');
    expect(tokenState(record, 0, created + 3_594_999)).toBe('refresh');
    expect(tokenState(record, 0, created + 3_595_000)).toBe('expired');
    expect(tokenState({ access_token: 'a', expires_in: 60, created_at: record.created_at }, 0, created + 56_000)).toBe('expired');
  });
});

describe('HttpClient against the server', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld();
  });
  afterAll(() => world.close());

  function httpFor(clock: ManualClock, fetchImpl = wire()) {
    const events = new Emitter();
    const seen: string[] = [];
    events.on((e) => seen.push(e));
    const tokens: unknown[] = [];
    const http = new HttpClient({ baseUrl: world.url, fetch: fetchImpl.fetch, clock, events, newId: () => nanoid(), swUuid: 'sw-1', onToken: (t) => void tokens.push(t) });
    return { http, seen, tokens, w: fetchImpl };
  }

  it('names its realtime socket in X-Socket-Id once it has one, so the server leaves the writer out of the echo', async () => {
    const signed = await createUserWithToken(world.server.ctx);
    const { http, w } = httpFor(new ManualClock(Date.parse(signed.tokens.created_at)));
    http.setToken(signed.tokens);
    let socket: string | null = null;
    http.useSocketId(() => socket);
    await http.request('get', '/api/app-vars');
    socket = '1234.5678';
    await http.request('get', '/api/app-vars');
    expect(w.calls.map((c) => c.headers['x-socket-id'])).toEqual([undefined, '1234.5678']);
  });

  it('refreshes the token before a request when it is due, then uses the new one', async () => {
    const signed = await createUserWithToken(world.server.ctx);
    const clock = new ManualClock(Date.parse(signed.tokens.created_at) + signed.tokens.expires_in * 1000 - 4_000);
    const { http, tokens, w } = httpFor(clock);
    http.setToken(signed.tokens);
    const res = await http.request('get', '/api/app-vars');
    expect(w.calls.map((c) => `${c.method} ${new URL(c.url).pathname}`)).toEqual(['POST /api/auth/refresh', 'GET /api/app-vars']);
    expect(w.calls[0]!.body).toEqual({ grantType: 'refresh_token', refresh_token: signed.tokens.refresh_token });
    expect(res.status).toBe(200);
    expect(http.currentToken()!.access_token).not.toBe(signed.token);
    expect(w.calls[1]!.headers.authorization).toBe(`Bearer ${http.currentToken()!.access_token}`);
    expect(tokens).toHaveLength(1);
  });

  it('a 401 from the refresh ends the session: token cleared, session-expired fired', async () => {
    const signed = await createUserWithToken(world.server.ctx);
    const clock = new ManualClock(Date.parse(signed.tokens.created_at) + signed.tokens.expires_in * 1000);
    const { http, seen, tokens } = httpFor(clock);
    http.setToken({ ...signed.tokens, refresh_token: 'not-a-real-refresh-token' });
    await http.request('get', '/api/app-vars');
    expect(http.hasSession()).toBe(false);
    expect(seen).toContain('session-expired');
    expect(tokens).toEqual([null]);
  });

  it('a token past its refresh lifetime is cleared without asking the server', async () => {
    const signed = await createUserWithToken(world.server.ctx);
    const clock = new ManualClock(Date.parse(signed.tokens.created_at) + signed.tokens.refresh_expires_in * 1000);
    const { http, seen, w } = httpFor(clock);
    http.setToken(signed.tokens);
    await http.request('get', '/api/app-vars');
    expect(w.calls.map((c) => new URL(c.url).pathname)).toEqual(['/api/app-vars']);
    expect(w.calls[0]!.headers.authorization).toBeUndefined();
    expect(seen).toContain('session-expired');
  });

  it('x-update-required and x-force-reload become update-required events', async () => {
    const clock = new ManualClock(Date.now());
    const base = wire();
    const withHeaders = {
      ...base,
      fetch: async (input: string, init: RequestInit) => {
        const res = await base.fetch(input, init);
        const headers = new Headers(res.headers);
        headers.set('x-update-required', input.includes('later') ? 'force' : '1');
        if (input.includes('force=1')) headers.set('x-force-reload', '1');
        return new Response(await res.text(), { status: res.status, headers });
      },
    };
    const events = new Emitter();
    const got: unknown[] = [];
    events.on((e, p) => e === 'update-required' && got.push(p));
    const http = new HttpClient({ baseUrl: world.url, fetch: withHeaders.fetch, clock, events, newId: () => nanoid(), swUuid: 'x' });
    await http.request('get', '/api/app-vars');
    await http.request('get', '/api/app-vars?force=1');
    await http.request('get', '/api/app-vars?later=1');
    expect(got).toEqual([
      { force: false, headers: { 'x-update-required': '1', 'x-force-reload': null } },
      { force: true, headers: { 'x-update-required': '1', 'x-force-reload': '1' } },
      { force: false, headers: { 'x-update-required': 'force', 'x-force-reload': null } },
    ]);
  });

  it('a refused connection is a NetworkError (a disconnect), not an HTTP status', async () => {
    const clock = new ManualClock(Date.now());
    const http = new HttpClient({ baseUrl: 'http://127.0.0.1:9', fetch: (i, init) => fetch(i, init), clock, events: new Emitter(), newId: () => nanoid(), swUuid: 'x' });
    await expect(http.request('get', '/api/app-vars')).rejects.toBeInstanceOf(NetworkError);
  });

  it('session expiry keeps every queued request; they replay after the next sign-in', async () => {
    const signed = await createUserWithToken(world.server.ctx);
    await world.server.ctx.db
      .insertInto('team_members')
      .values({ team_id: world.teamId, user_id: signed.user.id, role: 'admin', verified_at: new Date(), invited_by: world.owner.user.id, created_at: new Date() })
      .execute();
    const c = await createClient(world, { token: signed.tokens, userId: signed.user.id });
    // The server ends the session (e.g. logout elsewhere): the next write answers 401.
    await world.server.ctx.db.updateTable('access_tokens').set({ revoked_at: new Date() }).where('user_id', '=', signed.user.id).execute();
    const item = newItem(world, { name: 'Kept' });
    await c.engine.save('item', item, { teamId: world.teamId });
    await c.engine.idle();
    expect(c.of('session-expired')).toHaveLength(1);
    expect(c.http.hasSession()).toBe(false);
    const [kept] = await c.db.relaxed.failedRequests.toArray();
    expect(kept).toMatchObject({ id: item.id, error: { kind: 'session' } });
    expect(await c.local('item', item.id)).toMatchObject({ name: 'Kept' });
    // Sign in again: the queue replays.
    const again = await issueTokens(world.server.ctx.db, signed.user.id, new Date());
    c.http.setToken(again);
    await c.engine.flush();
    expect(await c.db.relaxed.failedRequests.count()).toBe(0);
    expect(await serverCopy(world, 'items', item.id)).toMatchObject({ name: 'Kept' });
    c.close();
  });
});
