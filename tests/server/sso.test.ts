import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestServer, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { startOidcProvider, type OidcProvider } from '../helpers/oidc-provider';
import { SSO_COOKIE } from '../../server/sso/login';
import { hashPassword } from '../../server/accounts/password';
import { CERT } from '../helpers/saml-cert';
import { setTxtResolver } from '../../server/whitelabel/txt';
import { codeAt, newTotpSecret } from '../../server/accounts/totp';


/**
 * Single sign-on (issue #18, decision 0270): the owner's settings and the OpenID Connect sign-in
 * against a real provider on a loopback port (tests/helpers/oidc-provider.ts): discovery, PKCE,
 * RS256 ID tokens checked by openid-client.
 */
describe('single sign-on', () => {
  let server: TestServer;
  let provider: OidcProvider;
  let owner: Awaited<ReturnType<typeof createUserWithToken>>;
  let member: Awaited<ReturnType<typeof createUserWithToken>>;
  let teamId: number;

  beforeAll(async () => {
    server = await createTestServer({ config: { ssoAllowPrivateIssuers: true, publicUrl: 'http://cairn.example.test' } });
    provider = await startOidcProvider();
    owner = await createUserWithToken(server.ctx, { email: 'owner@example.test' });
    member = await createUserWithToken(server.ctx, { email: 'member@example.test' });
    teamId = (await api(server.app, 'POST', '/api/teams', { token: owner.token, body: { name: 'Acme' } })).json().data.id;
    await server.ctx.db.insertInto('team_members').values({ team_id: teamId, user_id: member.user.id, role: 'admin', verified_at: new Date(), invited_by: owner.user.id, created_at: new Date() }).execute();
    // DNS: the TXT records tests publish (name → values); anything else is not found.
    setTxtResolver(server.ctx, async (name) => {
      if (txt.has(name)) return [[txt.get(name)!]];
      throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    });
  });
  const txt = new Map<string, string>();
  afterAll(async () => {
    await provider?.close();
    await server?.close();
  });

  const oidc = (extra: Record<string, unknown> = {}) => ({ issuer: provider.issuer, client_id: provider.clientId, client_secret: provider.clientSecret, allowed_domains: ['example.test'], ...extra });
  const save = (body: unknown, token = owner.token) => api(server.app, 'PUT', `/api/${teamId}/sso`, { token, body });

  /** start → the provider's authorisation → the callback with the browser's cookie. */
  async function signIn(start: Record<string, unknown> = { email: 'ada@example.test' }, tamper?: (params: Record<string, string>) => void) {
    const started = await api(server.app, 'POST', '/api/auth/sso/start', { body: start });
    return followProvider(started, tamper);
  }

  /** The provider's authorisation for a started flight, then the callback with the browser's cookie. */
  async function followProvider(started: Awaited<ReturnType<typeof api>>, tamper?: (params: Record<string, string>) => void) {
    expect(started.statusCode, started.body).toBe(200);
    const cookie = started.cookies.find((c) => c.name === SSO_COOKIE)!;
    expect(cookie.httpOnly).toBe(true);
    const back = await provider.authorize(started.json().data.url);
    expect(`${back.origin}${back.pathname}`).toBe('http://cairn.example.test/s/auth/redirect');
    const params = Object.fromEntries(back.searchParams);
    tamper?.(params);
    return server.app.inject({ method: 'POST', url: '/api/auth/sso/callback', cookies: { [SSO_COOKIE]: cookie.value }, payload: { params } });
  }

  describe('settings', () => {
    it('are the owner’s only: an admin, an outsider and an anonymous caller are refused', async () => {
      const outsider = await createUserWithToken(server.ctx);
      for (const [method, url] of [['GET', `/api/${teamId}/sso`], ['PUT', `/api/${teamId}/sso`], ['DELETE', `/api/${teamId}/sso`], ['POST', `/api/${teamId}/sso/test`]] as const) {
        expect((await api(server.app, method, url, { token: member.token, body: method === 'PUT' ? { oidc: oidc() } : {} })).statusCode).toBe(403);
        expect((await api(server.app, method, url, { token: outsider.token, body: {} })).statusCode).toBe(403);
        expect((await api(server.app, method, url, { body: {} })).statusCode).toBe(401);
      }
    });

    it('are checked: issuer URL, domains, a required secret, the SAML certificate', async () => {
      const bad = await save({ oidc: { issuer: 'not a url', client_id: '', allowed_domains: ['not a domain'] } });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().data).toEqual(expect.arrayContaining([expect.stringContaining('oidc.client_id'), expect.stringContaining('oidc.allowed_domains.0')]));
      expect((await save({ oidc: oidc({ issuer: 'ftp://idp.example.test' }) })).json().data).toEqual(['oidc.issuer: must be an https URL']);
      expect((await save({ oidc: oidc({ client_secret: undefined }) })).json().data).toEqual(['oidc.client_secret: is required']);
      const saml = await save({ saml: { entity_id: 'https://idp.example.test', sso_url: 'https://idp.example.test/sso', certificate: 'not a certificate' } });
      expect(saml.json().data).toEqual(['saml.certificate: must be an X.509 certificate (PEM)']);
      expect((await save({ saml: { entity_id: 'x', sso_url: 'http://idp.example.test/sso', certificate: CERT } })).json().data).toEqual(['saml.sso_url: must be an https URL']);
    });

    it('keep the client secret sealed and never answer it', async () => {
      const res = await save({ oidc: oidc({ allowed_domains: ['Example.test', '@example.test'] }), saml: { entity_id: 'https://idp.example.test', sso_url: 'https://idp.example.test/sso', certificate: CERT } });
      expect(res.statusCode, res.body).toBe(200);
      const view = res.json().data;
      expect(view.oidc).toEqual({ issuer: provider.issuer, client_id: provider.clientId, has_client_secret: true, enabled: true, enforce: false, allowed_domains: ['example.test'] });
      expect(view.saml).toMatchObject({ entity_id: 'https://idp.example.test', certificate_subject: 'CN=idp.example.test', active: false });
      expect(view.redirect_uri).toBe('http://cairn.example.test/s/auth/redirect');
      const read = await api(server.app, 'GET', `/api/${teamId}/sso`, { token: owner.token });
      expect(read.body).not.toContain(provider.clientSecret);
      const stored = await server.ctx.db.selectFrom('sso_settings').select('oidc_client_secret').where('team_id', '=', teamId).executeTakeFirstOrThrow();
      expect(stored.oidc_client_secret).not.toContain(provider.clientSecret);
      expect(stored.oidc_client_secret!.startsWith('v1.')).toBe(true);
      // Saved again without a secret: the stored one stays.
      expect((await save({ oidc: oidc({ client_secret: '' }) })).json().data.oidc.has_client_secret).toBe(true);
    });

    it('test the connection: what the provider’s discovery document says, or why it failed', async () => {
      const ok = await api(server.app, 'POST', `/api/${teamId}/sso/test`, { token: owner.token, body: {} });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().data).toMatchObject({ issuer: provider.issuer, token_endpoint: `${provider.issuer}/token`, pkce_s256: true });
      const wrong = await api(server.app, 'POST', `/api/${teamId}/sso/test`, { token: owner.token, body: { issuer: `${provider.issuer}/nothing-here` } });
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().type).toBe('sso_discovery_failed');
      expect(wrong.json().message).not.toMatch(/\n\s+at /); // no stack trace
    });
  });

  /** Publishes the workspace's TXT value for each allowed domain and asks the server to check them. */
  async function proveDomains(id = teamId, token = owner.token) {
    const view = (await api(server.app, 'GET', `/api/${id}/sso`, { token })).json().data;
    for (const d of view.domains) txt.set(d.record, d.value);
    const res = await api(server.app, 'POST', `/api/${id}/sso/verify`, { token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  /** Links `who` (a password set here, then confirmed) to this workspace's provider as `user`. */
  async function link(who: { user: { id: number }; token: string }, providerUser: typeof provider.user, id = teamId) {
    await server.ctx.db.updateTable('users').set({ password_hash: await hashPassword('link password 123'), reauthenticated_at: new Date() }).where('id', '=', who.user.id).execute();
    provider.user = providerUser;
    const started = await api(server.app, 'POST', '/api/me/sso-links/start', { token: who.token, body: { team_id: id } });
    expect(started.statusCode, started.body).toBe(200);
    return followProvider(started);
  }

  describe('sign-in', () => {
    beforeAll(async () => {
      await save({ oidc: oidc({ client_secret: '' }) });
      await proveDomains();
    });

    it('creates the account of an allowed domain, adds it to the workspace, and starts a session that works', async () => {
      provider.user = { sub: 'ada-1', email: 'ada@example.test', email_verified: true, name: 'Ada Lovelace' };
      const res = await signIn({ email: 'ada@example.test', intended: '/team/1/members' });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ intended: '/team/1/members', team_id: teamId, created: true });
      expect(res.cookies.find((c) => c.name === 'cairn_refresh')?.httpOnly).toBe(true);
      const me = await api(server.app, 'GET', '/api/me', { token: body.access_token });
      expect(me.statusCode).toBe(200);
      expect(me.json()).toMatchObject({ email: 'ada@example.test', name: 'Ada Lovelace' });
      const membership = await server.ctx.db.selectFrom('team_members').selectAll().where('team_id', '=', teamId).where('user_id', '=', me.json().id).executeTakeFirstOrThrow();
      expect(membership.role).toBe('full-member');
      expect(membership.verified_at).not.toBeNull();
      // The refresh cookie carries the session on, as after a password login.
      const refreshed = await server.app.inject({ method: 'POST', url: '/api/auth/refresh', cookies: { cairn_refresh: res.cookies.find((c) => c.name === 'cairn_refresh')!.value } });
      expect(refreshed.statusCode).toBe(200);
    });

    it('signs an existing member in only after the member linked the identity, with the e-mail from userinfo when the ID token has none', async () => {
      provider.user = { sub: 'member-1', email: 'member@example.test', email_verified: true };
      const unlinked = await signIn({ team_id: teamId });
      expect(unlinked.statusCode).toBe(403);
      expect(unlinked.json().type).toBe('sso_not_linked');
      // Linking needs the password confirmed.
      expect((await api(server.app, 'POST', '/api/me/sso-links/start', { token: member.token, body: { team_id: teamId } })).json().type).toBe('reauth');
      const linked = await link(member, { sub: 'member-1', email: 'member@example.test', email_verified: true });
      expect(linked.statusCode, linked.body).toBe(200);
      expect(linked.json()).toMatchObject({ linked: true, intended: '/profile/security' });
      expect(linked.json().access_token).toBeUndefined();
      const mine = (await api(server.app, 'GET', '/api/me/sso-links', { token: member.token })).json().data;
      expect(mine.links).toEqual([expect.objectContaining({ issuer: provider.issuer })]);
      expect(mine.providers).toEqual([expect.objectContaining({ team_id: teamId, linked: true })]);
      provider.emailInIdToken = false;
      try {
        const res = await signIn({ team_id: teamId });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toMatchObject({ intended: `/team/${teamId}`, created: false });
        expect((await api(server.app, 'GET', '/api/me', { token: res.json().access_token })).json().id).toBe(member.user.id);
      } finally {
        provider.emailInIdToken = true;
      }
    });

    it('refuses a state that does not match the sign-in started in this browser', async () => {
      provider.user = { sub: 'ada-1', email: 'ada@example.test', email_verified: true };
      const res = await signIn(undefined, (params) => (params.state = 'forged-state'));
      expect(res.statusCode).toBe(422);
      expect(res.json().type).toBe('sso_state_mismatch');
      // Without the browser's cookie, the provider's answer alone signs nobody in.
      const started = await api(server.app, 'POST', '/api/auth/sso/start', { body: { team_id: teamId } });
      const back = await provider.authorize(started.json().data.url);
      const noCookie = await server.app.inject({ method: 'POST', url: '/api/auth/sso/callback', payload: { params: Object.fromEntries(back.searchParams) } });
      expect(noCookie.json().type).toBe('sso_state_mismatch');
    });

    it('uses each sign-in once', async () => {
      const started = await api(server.app, 'POST', '/api/auth/sso/start', { body: { team_id: teamId } });
      const cookie = started.cookies.find((c) => c.name === SSO_COOKIE)!.value;
      const params = Object.fromEntries((await provider.authorize(started.json().data.url)).searchParams);
      const call = () => server.app.inject({ method: 'POST', url: '/api/auth/sso/callback', cookies: { [SSO_COOKIE]: cookie }, payload: { params } });
      expect((await call()).statusCode).toBe(200);
      expect((await call()).json().type).toBe('sso_state_mismatch');
    });

    it('refuses an e-mail the provider did not verify', async () => {
      provider.user = { sub: 'eve-1', email: 'eve@example.test', email_verified: false };
      const res = await signIn({ team_id: teamId });
      expect(res.statusCode).toBe(422);
      expect(res.json().type).toBe('sso_email_not_verified');
      expect(await server.ctx.db.selectFrom('users').select('id').where('email', '=', 'eve@example.test').executeTakeFirst()).toBeUndefined();
    });

    it('refuses a domain the workspace does not allow', async () => {
      provider.user = { sub: 'mal-1', email: 'mallory@elsewhere.test', email_verified: true };
      const res = await signIn({ team_id: teamId });
      expect(res.statusCode).toBe(422);
      expect(res.json().type).toBe('sso_domain_not_allowed');
    });

    it('does not sign in an existing account that is not in the workspace', async () => {
      await createUserWithToken(server.ctx, { email: 'stranger@example.test' });
      provider.user = { sub: 'stranger-1', email: 'stranger@example.test', email_verified: true };
      const res = await signIn({ team_id: teamId });
      expect(res.statusCode).toBe(403);
      expect(res.json().type).toBe('sso_not_linked');
    });

    it('N1: a pending invitation is no consent, an unproven domain signs nobody in, and a linked account with 2FA gives its code', async () => {
      // The review's steps: the victim has 2FA; the attacker owns a workspace with a provider of their own.
      const victim = await createUserWithToken(server.ctx, { email: 'victim@victim-corp.test' });
      const secret = newTotpSecret();
      await server.ctx.db.updateTable('users').set({ totp_secret: secret, totp_enabled_at: new Date() }).where('id', '=', victim.user.id).execute();
      const attacker = await createUserWithToken(server.ctx, { email: 'attacker@attacker.test' });
      const w = (await api(server.app, 'POST', '/api/teams', { token: attacker.token, body: { name: 'Trap' } })).json().data.id;
      const put = await api(server.app, 'PUT', `/api/${w}/sso`, { token: attacker.token, body: { oidc: oidc({ allowed_domains: ['victim-corp.test'], enabled: true }) } });
      expect(put.statusCode, put.body).toBe(200);
      expect(put.json().data.domains).toEqual([expect.objectContaining({ domain: 'victim-corp.test', verified: false })]);
      expect((await api(server.app, 'POST', `/api/teams/${w}/members`, { token: attacker.token, body: { invitations: [{ email: 'victim@victim-corp.test', role: 'restricted-member' }] } })).statusCode).toBe(200);
      provider.user = { sub: 'attacker-made', email: 'victim@victim-corp.test', email_verified: true };
      const unproven = await signIn({ team_id: w });
      expect(unproven.statusCode).toBe(422);
      expect(unproven.json().type).toBe('sso_domain_not_allowed');
      expect(unproven.json().access_token).toBeUndefined();
      // The record is not there: still unproven.
      const check = await api(server.app, 'POST', `/api/${w}/sso/verify`, { token: attacker.token });
      expect(check.json().problems['victim-corp.test']).toContain('No TXT record _cairn-verification.victim-corp.test');
      // Even with the domain proven, the invitation and the asserted address sign nobody in.
      await proveDomains(w, attacker.token);
      const refused = await signIn({ team_id: w });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().type).toBe('sso_not_linked');
      expect(refused.json().access_token).toBeUndefined();
      const invite = await server.ctx.db.selectFrom('team_members').select('verified_at').where('team_id', '=', w).where('user_id', '=', victim.user.id).executeTakeFirstOrThrow();
      expect(invite.verified_at).toBeNull();

      // The victim's own workspace: the victim links its provider identity, then signs in with SSO and its code.
      await server.ctx.db.insertInto('team_members').values({ team_id: teamId, user_id: victim.user.id, role: 'full-member', verified_at: new Date(), invited_by: owner.user.id, created_at: new Date() }).execute();
      await save({ oidc: oidc({ client_secret: '', allowed_domains: ['example.test', 'victim-corp.test'] }) });
      await proveDomains();
      expect((await link(victim, { sub: 'victim-1', email: 'victim@victim-corp.test', email_verified: true })).json().linked).toBe(true);
      const first = await signIn({ team_id: teamId });
      expect(first.statusCode).toBe(422);
      expect(first.json()).toMatchObject({ type: 'two_factor_required', data: { sso: true } });
      const cookie = first.cookies.find((c) => c.name === SSO_COOKIE && c.value)!;
      expect(cookie).toBeDefined();
      const second = (body: Record<string, unknown>, value = cookie.value) => server.app.inject({ method: 'POST', url: '/api/auth/sso/second-factor', cookies: { [SSO_COOKIE]: value }, payload: body });
      expect((await second({ totp: '000000' })).json().type).toBe('two_factor_invalid');
      expect((await second({ totp: codeAt(secret, new Date()) }, 'forged')).json().type).toBe('sso_state_mismatch');
      const done = await second({ totp: codeAt(secret, new Date()) });
      expect(done.statusCode, done.body).toBe(200);
      expect((await api(server.app, 'GET', '/api/me', { token: done.json().access_token })).json().id).toBe(victim.user.id);
      // Used once.
      expect((await second({ totp: codeAt(secret, new Date(Date.now() + 30_000)) })).json().type).toBe('sso_state_mismatch');
      // A workspace that requires SSO for the proven domain: the provider's sign-in is the way in.
      await save({ oidc: oidc({ client_secret: '', allowed_domains: ['example.test', 'victim-corp.test'], enforce: true }) });
      const enforced = await signIn({ team_id: teamId });
      expect(enforced.statusCode, enforced.body).toBe(200);
      await save({ oidc: oidc({ client_secret: '' }) });
    });

    it('passes on a provider’s refusal as a clear error', async () => {
      provider.refuseWith = 'access_denied';
      try {
        const res = await signIn({ team_id: teamId });
        expect(res.statusCode).toBe(422);
        expect(res.json()).toMatchObject({ type: 'sso_provider_error', data: { error: 'access_denied: The user declined.' } });
      } finally {
        provider.refuseWith = null;
      }
    });

    it('when required, refuses members of an allowed domain a password sign-in, never the owner', async () => {
      const password = 'correct horse battery staple';
      const hash = await hashPassword(password);
      await server.ctx.db.updateTable('users').set({ password_hash: hash }).where('id', 'in', [owner.user.id, member.user.id]).execute();
      const stranger = await createUserWithToken(server.ctx, { email: 'visitor@example.test' });
      await server.ctx.db.updateTable('users').set({ password_hash: hash }).where('id', '=', stranger.user.id).execute();
      const login = (email: string) => api(server.app, 'POST', '/api/auth/login', { body: { email, password }, headers: { 'x-forwarded-for': '10.9.8.7' } });
      expect((await login('member@example.test')).statusCode).toBe(200);

      const saved = await save({ oidc: oidc({ client_secret: '', enforce: true }) });
      expect(saved.json().data.oidc.enforce).toBe(true);
      const refused = await login('member@example.test');
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toMatchObject({ type: 'sso_required', data: { team_id: teamId } });
      // A wrong password is still only "these credentials do not match".
      expect((await api(server.app, 'POST', '/api/auth/login', { body: { email: 'member@example.test', password: 'wrong password here' }, headers: { 'x-forwarded-for': '10.9.8.7' } })).json().type).toBe('invalid_credentials');
      expect((await login('owner@example.test')).statusCode).toBe(200);
      // Not a member of this workspace: its setting is not theirs.
      expect((await login('visitor@example.test')).statusCode).toBe(200);
      // The provider switched off: passwords work again, whatever the flag said.
      expect((await save({ oidc: oidc({ client_secret: '', enforce: true, enabled: false }) })).json().data.oidc.enforce).toBe(false);
      expect((await login('member@example.test')).statusCode).toBe(200);
      await save({ oidc: oidc({ client_secret: '' }) });
    });

    it('answers a clear error for an e-mail domain without single sign-on, and after the settings are removed', async () => {
      const none = await api(server.app, 'POST', '/api/auth/sso/start', { body: { email: 'someone@nowhere.test' } });
      expect(none.statusCode).toBe(422);
      expect(none.json().type).toBe('sso_not_configured');
      expect((await api(server.app, 'DELETE', `/api/${teamId}/sso`, { token: owner.token })).json().data.oidc).toBeNull();
      expect((await api(server.app, 'POST', '/api/auth/sso/start', { body: { team_id: teamId } })).json().type).toBe('sso_not_configured');
    });
  });
});
