import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, startServer, type RunningServer } from './helpers';
import { DEMO, expectAccessible, expectScreen, expectToast, loginThroughUi } from './shell-helpers';
import { startOidcProvider, type OidcProvider } from '../tests/helpers/oidc-provider';

/**
 * Single sign-on in a real browser (issue #18, decision 0270): the owner sets up OpenID Connect on
 * team.sso and tests the connection; a new person signs in from /login → /auth with a work e-mail,
 * through the provider (tests/helpers/oidc-provider.ts) and /s/auth/redirect into the workspace.
 */
describe('single sign-on', () => {
  let server: RunningServer;
  let provider: OidcProvider;
  let browser: Browser;
  let teamId = 0;

  beforeAll(async () => {
    provider = await startOidcProvider();
    server = await startServer({ SSO_ALLOW_PRIVATE_ISSUERS: 'true' });
    browser = await launchBrowser();
    const login = await (await fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...DEMO, grantType: 'password' }) })).json();
    const mine = await (await fetch(`${server.url}/api/me/workspaces`, { headers: { authorization: `Bearer ${login.access_token}` } })).json();
    teamId = (mine.data.find((w: { user_role?: string }) => w.user_role === 'owner') ?? mine.data[0]).id;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await provider?.close();
  });

  it('the owner saves the provider and tests the connection; a new member signs in with it', async () => {
    const owner = await browser.newContext();
    const page = await owner.newPage();
    await loginThroughUi(page, server.url);
    await page.goto(`${server.url}/team/${teamId}/sso`);
    await expectScreen(page, 'team.sso');
    await expect.poll(() => page.getByTestId('sso-redirect-uri').textContent()).toBe(`${server.url}/s/auth/redirect`);
    await page.getByLabel('Issuer URL').fill(provider.issuer);
    await page.getByLabel('Client ID').fill(provider.clientId);
    await page.getByLabel('Client secret').fill(provider.clientSecret);
    await page.getByLabel('Allowed e-mail domains').fill('sso.example.test');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expectToast(page, 'Single sign-on settings saved.');
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByTestId('sso-test-result').getByText(provider.issuer, { exact: false }).first().waitFor();
    await expect.poll(() => page.getByTestId('sso-saml-inactive').isVisible()).toBe(true);
    await expectAccessible(page, 'team.sso');
    await owner.close();

    provider.user = { sub: 'grace-1', email: 'grace@sso.example.test', email_verified: true, name: 'Grace Hopper' };
    const visitor = await browser.newContext();
    const signIn = await visitor.newPage();
    const errors: string[] = [];
    signIn.on('pageerror', (e) => errors.push(e.message));
    await signIn.goto(`${server.url}/login`);
    await signIn.getByRole('link', { name: 'Sign in with single sign-on' }).click();
    await expectScreen(signIn, 'auth');
    await expectAccessible(signIn, 'auth');
    await signIn.getByLabel('Work e-mail').fill('grace@sso.example.test');
    await signIn.getByRole('button', { name: 'Continue with single sign-on' }).click();
    // Provider → /s/auth/redirect → the workspace, signed in as the new member.
    await signIn.waitForURL(new RegExp(`/team/${teamId}$`), { timeout: 30_000 });
    await expectScreen(signIn, 'team.boards');
    const me = await signIn.evaluate(async () => (await fetch('/api/auth/refresh', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status);
    expect(me).toBe(200);
    expect(errors).toEqual([]);

    // Coming back to the callback without a sign-in in flight: a clear, translated refusal.
    await signIn.goto(`${server.url}/s/auth/redirect?code=forged&state=forged`);
    await expect.poll(() => signIn.getByTestId('sso-error').textContent()).toContain('could not be matched to the one started in this browser');
    await expectAccessible(signIn, 'auth.redirect');
    await visitor.close();
  });
});
