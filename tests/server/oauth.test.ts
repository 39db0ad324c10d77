import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { board, teamWithRoles, type TeamFixture } from './sync-fixtures';
import { hashToken } from '../../server/auth/tokens';
import { OAUTH_CODE_TTL_S } from '../../server/developer/oauth-routes';

/** OAuth apps: authorisation code with PKCE (S256), every refusal in RFC 6749's shape (issue 14; decision 0145). */
describe('OAuth applications', () => {
  let server: TestServer;
  let t: TeamFixture;
  let boardId: string;
  let app: { id: number; client_id: string; client_secret: string; redirect_uris: string[] };
  const REDIRECT = 'https://client.example.test/callback';

  const pkce = () => {
    const verifier = crypto.randomBytes(32).toString('base64url');
    return { verifier, challenge: crypto.createHash('sha256').update(verifier).digest('base64url') };
  };
  const authorizeParams = (challenge: string, extra: Record<string, string> = {}) => ({
    client_id: app.client_id,
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: 'read',
    state: 'xyz',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  });
  /** Runs the consent step as the user and returns the code from the redirect. */
  const codeFor = async (challenge: string, extra: Record<string, string> = {}, user = t.full.token) => {
    const res = await api(server.app, 'POST', '/api/oauth/authorize', { token: user, body: { ...authorizeParams(challenge, extra), allowed: true } });
    expect(res.statusCode, res.body).toBe(200);
    const redirect = new URL(res.json().redirect);
    expect(`${redirect.origin}${redirect.pathname}`).toBe(REDIRECT);
    expect(redirect.searchParams.get('state')).toBe('xyz');
    return redirect.searchParams.get('code')!;
  };
  const exchange = (form: Record<string, string>, basic: { id: string; secret: string } | null = { id: app.client_id, secret: app.client_secret }) =>
    server.app.inject({
      method: 'POST',
      url: '/api/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(basic ? { authorization: `Basic ${Buffer.from(`${basic.id}:${basic.secret}`).toString('base64')}` } : {}) },
      payload: new URLSearchParams(form).toString(),
    });
  const expectRefusal = (res: { statusCode: number; json(): any }, status: number, error: string) => {
    expect(res.statusCode).toBe(status);
    const body = res.json();
    expect(body.error).toBe(error);
    expect(typeof body.error_description).toBe('string');
    expect(body).not.toHaveProperty('access_token');
  };
  const readItems = (token: string) => api(server.app, 'GET', `/api/${t.teamId}/items?board_id=${boardId}`, { token });

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
    const b = board();
    boardId = b.id;
    expect((await api(server.app, 'PUT', `/api/${t.teamId}/folders/${b.id}`, { token: t.owner.token, body: b })).statusCode).toBe(200);
    const res = await api(server.app, 'POST', '/api/me/oauth-apps', { token: t.owner.token, body: { name: 'Time tracker', redirect_uris: [REDIRECT] } });
    expect(res.statusCode, res.body).toBe(201);
    app = res.json().data;
  });
  afterAll(() => server.close());

  it('registers an app: the secret is shown once and stored hashed', async () => {
    expect(app.client_secret).toMatch(/^cairn_cs_/);
    const list = await api(server.app, 'GET', '/api/me/oauth-apps', { token: t.owner.token });
    expect(list.json().data[0]).toMatchObject({ client_id: app.client_id, name: 'Time tracker', redirect_uris: [REDIRECT] });
    expect(list.body).not.toContain(app.client_secret);
    const row = await server.ctx.db.selectFrom('oauth_clients').select('secret_hash').where('id', '=', app.id).executeTakeFirstOrThrow();
    expect(row.secret_hash).toBe(hashToken(app.client_secret));
    const bad = await api(server.app, 'POST', '/api/me/oauth-apps', { token: t.owner.token, body: { name: 'x', redirect_uris: ['http://evil.test/cb#frag'] } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toContain('redirect_uris.0');
  });

  it('runs the code flow with PKCE: consent, code, token, API calls within the scope', async () => {
    const { verifier, challenge } = pkce();
    const consent = await api(server.app, 'GET', `/api/oauth/authorize?${new URLSearchParams(authorizeParams(challenge, { scope: 'read write' }))}`, { token: t.full.token });
    expect(consent.statusCode, consent.body).toBe(200);
    expect(consent.json().data).toMatchObject({ client: { client_id: app.client_id, name: 'Time tracker' }, redirect_uri: REDIRECT, scopes: ['read', 'write'] });

    const code = await codeFor(challenge);
    const res = await exchange({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const tokens = res.json();
    expect(tokens).toMatchObject({ token_type: 'Bearer', scope: 'read', expires_in: expect.any(Number) });
    expect(tokens.access_token).toMatch(/^cairn_oat_/);
    expect(tokens.refresh_token).toMatch(/^cairn_ort_/);
    // Stored hashed.
    const stored = await server.ctx.db.selectFrom('api_tokens').selectAll().where('token_hash', '=', hashToken(tokens.access_token)).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ kind: 'oauth', user_id: t.full.user.id, abilities: ['read'] });

    // Scoped like a personal token: reads, cannot write, cannot mint tokens.
    expect((await readItems(tokens.access_token)).statusCode).toBe(200);
    const write = await api(server.app, 'PUT', `/api/teams/${t.teamId}`, { token: tokens.access_token, body: { name: 'x' } });
    expect(write.statusCode).toBe(403);
    expect((await api(server.app, 'GET', '/api/me/tokens', { token: tokens.access_token })).statusCode).toBe(403);

    // The user sees the app among their authorised apps.
    const authorised = await api(server.app, 'GET', '/api/me/applications', { token: t.full.token });
    expect(authorised.json().data).toEqual([expect.objectContaining({ client_id: app.client_id, name: 'Time tracker', abilities: ['read'] })]);

    // A refresh replaces the pair: the old access token stops working.
    const refreshed = await exchange({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    expect((await readItems(tokens.access_token)).statusCode).toBe(401);
    const fresh = refreshed.json().access_token;
    expect((await readItems(fresh)).statusCode).toBe(200);
    expectRefusal(await exchange({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }), 400, 'invalid_grant');

    // Revoking the app on /profile/applications ends its access.
    expect((await api(server.app, 'DELETE', `/api/me/applications/${app.client_id}`, { token: t.full.token })).statusCode).toBe(200);
    expect((await readItems(fresh)).statusCode).toBe(401);
    expect((await api(server.app, 'GET', '/api/me/applications', { token: t.full.token })).json().data).toEqual([]);
  });

  it('refuses a bad client or redirect URI without redirecting', async () => {
    const { challenge } = pkce();
    const ask = (params: Record<string, string>) => api(server.app, 'GET', `/api/oauth/authorize?${new URLSearchParams(params)}`, { token: t.full.token });
    const unknown = await ask(authorizeParams(challenge, { client_id: 'nope' }));
    expectRefusal(unknown, 401, 'invalid_client');
    expect(unknown.json()).not.toHaveProperty('redirect');
    const elsewhere = await ask(authorizeParams(challenge, { redirect_uri: 'https://attacker.test/callback' }));
    expectRefusal(elsewhere, 400, 'invalid_request');
    expect(elsewhere.json()).not.toHaveProperty('redirect');
    const decided = await api(server.app, 'POST', '/api/oauth/authorize', { token: t.full.token, body: { ...authorizeParams(challenge, { redirect_uri: 'https://client.example.test/callback/x' }), allowed: true } });
    expectRefusal(decided, 400, 'invalid_request');
  });

  it('requires PKCE with S256, a code response and known scopes (refusals go back to the app)', async () => {
    const { challenge } = pkce();
    const ask = (params: Record<string, string>) => api(server.app, 'GET', `/api/oauth/authorize?${new URLSearchParams(params)}`, { token: t.full.token });
    const { code_challenge: _c, ...noChallenge } = authorizeParams(challenge);
    const missing = await ask(noChallenge);
    expectRefusal(missing, 400, 'invalid_request');
    const back = new URL(missing.json().redirect);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('state')).toBe('xyz');
    expectRefusal(await ask(authorizeParams(challenge, { code_challenge_method: 'plain' })), 400, 'invalid_request');
    expectRefusal(await ask(authorizeParams(challenge, { response_type: 'token' })), 400, 'unsupported_response_type');
    expectRefusal(await ask(authorizeParams(challenge, { scope: 'read sudo' })), 400, 'invalid_scope');
    // The user's answer is checked the same way: no code without a challenge.
    const posted = await api(server.app, 'POST', '/api/oauth/authorize', { token: t.full.token, body: { ...noChallenge, allowed: true } });
    expectRefusal(posted, 400, 'invalid_request');
    expect(await server.ctx.db.selectFrom('oauth_codes').select('code_hash').where('user_id', '=', t.full.user.id).where('used_at', 'is', null).execute()).toEqual([]);
  });

  it('sends a denial back to the app as access_denied', async () => {
    const { challenge } = pkce();
    const res = await api(server.app, 'POST', '/api/oauth/authorize', { token: t.full.token, body: { ...authorizeParams(challenge), allowed: false } });
    expect(res.statusCode).toBe(200);
    const back = new URL(res.json().redirect);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('refuses a missing or wrong verifier, and the code is spent by the attempt', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(challenge);
    expectRefusal(await exchange({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }), 400, 'invalid_grant');
    // The failed attempt consumed it (no guessing verifiers against one code).
    expectRefusal(await exchange({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier }), 400, 'invalid_grant');

    const second = pkce();
    const code2 = await codeFor(second.challenge);
    expectRefusal(await exchange({ grant_type: 'authorization_code', code: code2, redirect_uri: REDIRECT, code_verifier: pkce().verifier }), 400, 'invalid_grant');
  });

  it('refuses a reused code and revokes the tokens it bought', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(challenge);
    const first = await exchange({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier });
    expect(first.statusCode).toBe(200);
    expect((await readItems(first.json().access_token)).statusCode).toBe(200);
    expectRefusal(await exchange({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier }), 400, 'invalid_grant');
    expect((await readItems(first.json().access_token)).statusCode).toBe(401);
  });

  it('refuses a wrong or missing client secret, another client’s code, and a different redirect URI', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(challenge);
    const form = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier };
    const wrong = await exchange(form, { id: app.client_id, secret: 'cairn_cs_wrong' });
    expectRefusal(wrong, 401, 'invalid_client');
    expectRefusal(await exchange(form, null), 400, 'invalid_client');
    const other = (await api(server.app, 'POST', '/api/me/oauth-apps', { token: t.owner.token, body: { name: 'Other', redirect_uris: [REDIRECT] } })).json().data;
    expectRefusal(await exchange(form, { id: other.client_id, secret: other.client_secret }), 400, 'invalid_grant');

    const again = pkce();
    const code2 = await codeFor(again.challenge);
    expectRefusal(await exchange({ grant_type: 'authorization_code', code: code2, redirect_uri: 'https://client.example.test/other', code_verifier: again.verifier }), 400, 'invalid_request');
    // A grant the app may not use, and a code never issued.
    expectRefusal(await exchange({ grant_type: 'password', username: 'a', password: 'b' }), 400, 'unauthorized_client');
    expectRefusal(await exchange({ grant_type: 'authorization_code', code: 'made-up', redirect_uri: REDIRECT, code_verifier: again.verifier }), 400, 'invalid_grant');
  });

  it('takes JSON and client_secret in the body too', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(challenge);
    const res = await api(server.app, 'POST', '/api/oauth/token', { body: { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier, client_id: app.client_id, client_secret: app.client_secret } });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('deleting the app ends every token issued to it', async () => {
    const other = (await api(server.app, 'POST', '/api/me/oauth-apps', { token: t.owner.token, body: { name: 'Doomed', redirect_uris: [REDIRECT] } })).json().data;
    const saved = app;
    app = other;
    try {
      const { verifier, challenge } = pkce();
      const code = await codeFor(challenge);
      const token = (await exchange({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier })).json().access_token;
      expect((await readItems(token)).statusCode).toBe(200);
      expect((await api(server.app, 'DELETE', `/api/me/oauth-apps/${other.id}`, { token: t.full.token })).statusCode).toBe(404);
      expect((await api(server.app, 'DELETE', `/api/me/oauth-apps/${other.id}`, { token: t.owner.token })).statusCode).toBe(200);
      expect((await readItems(token)).statusCode).toBe(401);
    } finally {
      app = saved;
    }
  });

  // Last: it moves the server clock.
  it('refuses an expired code', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(challenge);
    server.advance(OAUTH_CODE_TTL_S * 1000 + 1000);
    expectRefusal(await exchange({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier }), 400, 'invalid_grant');
  });
});
