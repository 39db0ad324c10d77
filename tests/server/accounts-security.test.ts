import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { codeAt } from '../../server/accounts/totp';

/** Reauthentication, two-factor, password reset, email verification and invitation sign-up. */
describe('accounts: security flows', () => {
  let server: TestServer;
  let ipCounter = 0;
  const fromIp = () => ({ 'x-forwarded-for': `10.1.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}` });
  const post = (url: string, body?: unknown, token?: string) => api(server.app, 'POST', url, { body, token, headers: fromIp() });

  async function signUp(email: string, password = 'a fine password') {
    const res = await post('/api/auth/register', { email, name: email.split('@')[0], password });
    expect(res.statusCode).toBe(201);
    return { token: res.json().access_token as string, id: res.json().user.id as number, email, password };
  }
  const lastMailTo = async (to: string) => (await server.outbox()).filter((m) => m.to === to).at(-1)!;

  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server.close());

  describe('reauthentication', () => {
    it('opens a 30-minute window for privileged actions', async () => {
      const u = await signUp('reauth@example.test');
      const change = () => api(server.app, 'PUT', '/api/me/email', { token: u.token, body: { email: 'reauth2@example.test' } });

      const refused = await change();
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toMatchObject({ type: 'reauth', message: 'Please confirm your password to continue.', data: { intended: '/api/me/email' } });

      const wrong = await post('/api/auth/reauthenticate', { password: 'not my password' }, u.token);
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().message).toBe('The password is incorrect.');

      const ok = await post('/api/auth/reauthenticate', { password: u.password }, u.token);
      expect(ok.statusCode).toBe(200);
      expect(new Date(ok.json().valid_until).getTime() - new Date(ok.json().reauthenticated_at).getTime()).toBe(30 * 60 * 1000);

      server.advance(29 * 60 * 1000);
      const inWindow = await api(server.app, 'POST', '/api/me/two-factor', { token: u.token });
      expect(inWindow.statusCode).toBe(200);

      server.advance(2 * 60 * 1000);
      const late = await api(server.app, 'DELETE', '/api/me/two-factor', { token: u.token });
      expect(late.statusCode).toBe(401);
      expect(late.json().type).toBe('reauth');
    });

    it('needs a signed-in user and a password field', async () => {
      expect((await post('/api/auth/reauthenticate', { password: 'x' })).statusCode).toBe(401);
      const u = await signUp('reauth-missing@example.test');
      const missing = await post('/api/auth/reauthenticate', {}, u.token);
      expect(missing.statusCode).toBe(422);
      expect(missing.json().data).toEqual(['password: is required']);
    });

    it('throttles password guessing on reauthentication', async () => {
      const u = await signUp('reauth-flood@example.test');
      for (let i = 0; i < 5; i++) expect((await post('/api/auth/reauthenticate', { password: `guess-${i}` }, u.token)).statusCode).toBe(422);
      expect((await post('/api/auth/reauthenticate', { password: u.password }, u.token)).statusCode).toBe(429);
    }, 120_000);
  });

  describe('two-factor', () => {
    let u: Awaited<ReturnType<typeof signUp>>;
    let secret: string;
    let recovery: string[];
    const login = (extra: Record<string, unknown> = {}) => post('/api/auth/login', { email: u.email, password: u.password, ...extra });

    beforeAll(async () => {
      u = await signUp('tfa@example.test');
    });

    it('enables with a provisioning QR and a confirmation code, showing recovery codes once', async () => {
      await post('/api/auth/reauthenticate', { password: u.password }, u.token);
      const start = await post('/api/me/two-factor', undefined, u.token);
      expect(start.statusCode).toBe(200);
      secret = start.json().secret;
      expect(start.json().otpauth_url).toMatch(/^otpauth:\/\/totp\/Cairn:tfa%40example\.test\?/);
      expect(start.json().qr_code).toMatch(/^data:image\/svg\+xml;base64,/);

      const status = await api(server.app, 'GET', '/api/me/two-factor', { token: u.token });
      expect(status.json()).toEqual({ enabled: false, pending_confirmation: true, recovery_codes_left: 0 });

      const bad = await post('/api/me/two-factor/confirm', { code: '000000' }, u.token);
      expect(bad.statusCode).toBe(422);
      expect(bad.json().type).toBe('two_factor_invalid');

      const ok = await post('/api/me/two-factor/confirm', { code: codeAt(secret, server.ctx.now()) }, u.token);
      expect(ok.statusCode).toBe(200);
      recovery = ok.json().recovery_codes;
      expect(recovery).toHaveLength(8);
      const stored = await server.ctx.db.selectFrom('users').select('recovery_codes').where('id', '=', u.id).executeTakeFirstOrThrow();
      expect(stored.recovery_codes).not.toContain(recovery[0]);

      expect((await api(server.app, 'GET', '/api/me', { token: u.token })).json().two_factor_enabled).toBe(true);
    });

    it('asks for a second factor at login, and refuses a wrong one', async () => {
      const none = await login();
      expect(none.statusCode).toBe(422);
      expect(none.json()).toMatchObject({ type: 'two_factor_required', message: 'Enter the code from your authenticator app or a recovery code.' });
      const wrong = await login({ totp: '123456' === codeAt(secret, server.ctx.now()) ? '654321' : '123456' });
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json()).toMatchObject({ type: 'two_factor_invalid', message: 'The two-factor code is not valid.' });
    });

    it('accepts a TOTP code once only', async () => {
      server.advance(30_000);
      const code = codeAt(secret, server.ctx.now());
      expect((await login({ totp: code })).statusCode).toBe(200);
      const replay = await login({ totp: code });
      expect(replay.statusCode).toBe(422);
      expect(replay.json().type).toBe('two_factor_invalid');
      server.advance(30_000);
      expect((await login({ totp: codeAt(secret, server.ctx.now()) })).statusCode).toBe(200);
    });

    it('accepts each recovery code once', async () => {
      const first = await login({ recoveryCode: recovery[0]!.toUpperCase() });
      expect(first.statusCode).toBe(200);
      const again = await login({ recoveryCode: recovery[0] });
      expect(again.statusCode).toBe(422);
      expect(again.json().message).toBe('The recovery code is not valid or was already used.');
      expect((await api(server.app, 'GET', '/api/me/two-factor', { token: u.token })).json().recovery_codes_left).toBe(7);
    });

    it('disables after reauthentication; then the password alone signs in', async () => {
      server.advance(31 * 60 * 1000);
      expect((await api(server.app, 'DELETE', '/api/me/two-factor', { token: u.token })).statusCode).toBe(401);
      await post('/api/auth/reauthenticate', { password: u.password }, u.token);
      const off = await api(server.app, 'DELETE', '/api/me/two-factor', { token: u.token });
      expect(off.statusCode).toBe(200);
      expect((await login()).statusCode).toBe(200);
    });
  });

  describe('password reset', () => {
    const tokenFrom = (text: string) => {
      const match = /\/password\/reset\/([^/\s]+)\/([^\s]+)/.exec(text)!;
      return { token: decodeURIComponent(match[1]!), email: decodeURIComponent(match[2]!) };
    };

    it('answers the same for known and unknown addresses, mailing only the known one', async () => {
      await signUp('reset@example.test');
      const known = await post('/api/auth/forgot-password', { email: 'reset@example.test' });
      const unknown = await post('/api/auth/forgot-password', { email: 'ghost@example.test' });
      expect(known.statusCode).toBe(200);
      expect(unknown.json()).toEqual(known.json());
      expect((await server.outbox()).some((m) => m.to === 'ghost@example.test')).toBe(false);
      const mail = await lastMailTo('reset@example.test');
      expect(mail.text).toContain('/password/reset/');
    });

    it('resets once with the mailed link, signs every session out, and refuses the link again', async () => {
      const u = await signUp('reset2@example.test');
      await post('/api/auth/forgot-password', { email: u.email });
      const link = tokenFrom((await lastMailTo(u.email)).text);
      expect(link.email).toBe(u.email);

      const otherEmail = await post('/api/auth/reset-password', { ...link, email: 'reset@example.test', password: 'brand new password' });
      expect(otherEmail.statusCode).toBe(422);

      const short = await post('/api/auth/reset-password', { ...link, password: 'short' });
      expect(short.statusCode).toBe(422);
      expect(short.json().data).toEqual(['password: must be at least 8 characters']);

      const ok = await post('/api/auth/reset-password', { ...link, password: 'brand new password' });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().redirect).toBe('/login');
      expect((await api(server.app, 'GET', '/api/me', { token: u.token })).statusCode).toBe(401);
      expect((await post('/api/auth/login', { email: u.email, password: u.password })).statusCode).toBe(422);
      expect((await post('/api/auth/login', { email: u.email, password: 'brand new password' })).statusCode).toBe(200);

      const reused = await post('/api/auth/reset-password', { ...link, password: 'another new password' });
      expect(reused.statusCode).toBe(422);
      expect(reused.json()).toMatchObject({ message: 'This password reset link is invalid or has expired.', type: 'invalid_token' });
    });

    it('refuses an expired link, and only the newest link works', async () => {
      const u = await signUp('reset3@example.test');
      await post('/api/auth/forgot-password', { email: u.email });
      const older = tokenFrom((await lastMailTo(u.email)).text);
      await post('/api/auth/forgot-password', { email: u.email });
      const newer = tokenFrom((await lastMailTo(u.email)).text);
      expect((await post('/api/auth/reset-password', { ...older, password: 'brand new password' })).statusCode).toBe(422);

      server.advance(61 * 60 * 1000);
      const expired = await post('/api/auth/reset-password', { ...newer, password: 'brand new password' });
      expect(expired.statusCode).toBe(422);
      expect(expired.json().message).toBe('This password reset link is invalid or has expired.');
    });

    it('throttles reset mails per address', async () => {
      await signUp('reset4@example.test');
      for (let i = 0; i < 3; i++) expect((await post('/api/auth/forgot-password', { email: 'reset4@example.test' })).statusCode).toBe(200);
      const blocked = await post('/api/auth/forgot-password', { email: 'reset4@example.test' });
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().type).toBe('rate_limited');
    });

    it('lets an invited (password-less) account set its password through a reset', async () => {
      const { createUser } = await import('../../server/accounts/service');
      await createUser(server.ctx, { email: 'invitee-reset@example.test', name: 'Invitee', password: null });
      await post('/api/auth/forgot-password', { email: 'invitee-reset@example.test' });
      const link = tokenFrom((await lastMailTo('invitee-reset@example.test')).text);
      expect((await post('/api/auth/reset-password', { ...link, password: 'chosen password' })).statusCode).toBe(200);
      const login = await post('/api/auth/login', { email: 'invitee-reset@example.test', password: 'chosen password' });
      expect(login.statusCode).toBe(200);
      expect((await api(server.app, 'GET', '/api/me', { token: login.json().access_token })).json().email_verified).toBe(true);
    });
  });

  describe('email verification', () => {
    const tokenFrom = (text: string) => decodeURIComponent(/verify-email\?token=([^\s]+)/.exec(text)![1]!);

    it('verifies with the mailed token once', async () => {
      const u = await signUp('verify@example.test');
      const token = tokenFrom((await lastMailTo(u.email)).text);
      const ok = await post('/api/auth/verify-email', { token });
      expect(ok.statusCode).toBe(200);
      expect((await api(server.app, 'GET', '/api/me', { token: u.token })).json().email_verified).toBe(true);
      const again = await post('/api/auth/verify-email', { token });
      expect(again.statusCode).toBe(422);
      expect(again.json().message).toBe('This verification link is invalid or has expired.');
      expect((await post('/api/auth/verify-email', {})).json().data).toEqual(['token: is required']);
    });

    it('resends a link (throttled), and refuses when already verified', async () => {
      const u = await signUp('verify2@example.test');
      for (let i = 0; i < 3; i++) expect((await post('/api/auth/verify-email/resend', undefined, u.token)).statusCode).toBe(200);
      expect((await post('/api/auth/verify-email/resend', undefined, u.token)).statusCode).toBe(429);
      expect((await post('/api/auth/verify-email/resend')).statusCode).toBe(401);
      const token = tokenFrom((await lastMailTo(u.email)).text);
      expect((await post('/api/auth/verify-email', { token })).statusCode).toBe(200);
      server.advance(16 * 60 * 1000);
      const done = await post('/api/auth/verify-email/resend', undefined, u.token);
      expect(done.statusCode).toBe(422);
      expect(done.json().message).toBe('Your email address is already verified.');
    });

    it('refuses to invite members until the address is verified', async () => {
      const u = await signUp('unverified-owner@example.test');
      const team = await post('/api/teams', { name: 'Acme' }, u.token);
      expect(team.statusCode).toBe(201);
      const invite = await post(`/api/teams/${team.json().data.id}/members`, { invitations: [{ email: 'x@example.test', role: 'full-member' }] }, u.token);
      expect(invite.statusCode).toBe(403);
      expect(invite.json().message).toBe('Your email address is not verified.');
    });
  });

  describe('registering through an invitation', () => {
    it('claims the pending account, verifies it and joins the workspace', async () => {
      const owner = await signUp('owner@example.test');
      await post('/api/auth/verify-email', { token: tokenOf((await lastMailTo(owner.email)).text) });
      const team = (await post('/api/teams', { name: 'Invite Co' }, owner.token)).json().data;
      const invited = await post(`/api/teams/${team.id}/members`, { invitations: [{ email: 'newbie@example.test', role: 'full-member' }] }, owner.token);
      expect(invited.statusCode).toBe(200);
      const token = decodeURIComponent(/invitation\?token=([^\s]+)/.exec((await lastMailTo('newbie@example.test')).text)![1]!);

      const wrongEmail = await post('/api/auth/register', { email: 'other@example.test', name: 'Newbie', password: 'newbie password', invitation: token });
      expect(wrongEmail.statusCode).toBe(422);
      expect(wrongEmail.json().message).toBe('This invitation is not valid.');
      const bogus = await post('/api/auth/register', { email: 'newbie@example.test', name: 'Newbie', password: 'newbie password', invitation: 'bogus' });
      expect(bogus.statusCode).toBe(422);

      const res = await post('/api/auth/register', { email: 'newbie@example.test', name: 'Newbie', password: 'newbie password', invitation: token });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ intended: `/team/${team.id}`, invitation: { accepted: true, team_id: team.id }, user: { email: 'newbie@example.test', email_verified: true } });
      const members = (await api(server.app, 'GET', `/api/teams/${team.id}/members`, { token: owner.token })).json();
      expect(JSON.stringify(members)).toContain('newbie@example.test');
      const sub = await server.ctx.db.selectFrom('subscriptions').select('deal').where('user_id', '=', res.json().user.id).executeTakeFirst();
      expect(sub?.deal).toBe('free');

      const twice = await post('/api/auth/register', { email: 'newbie@example.test', name: 'Newbie', password: 'newbie password', invitation: token });
      expect(twice.statusCode).toBe(422);
    });
    const tokenOf = (text: string) => decodeURIComponent(/verify-email\?token=([^\s]+)/.exec(text)![1]!);
  });
});
