import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, startServer, type RunningServer } from './helpers';
import { DEMO, expectAccessible, expectScreen, expectToast, loginThroughUi } from './shell-helpers';
import { startOidcProvider, type OidcProvider } from '../tests/helpers/oidc-provider';
import { startDns } from './dns-server';

/**
 * Single sign-on in a real browser (issue #18, decision 0270): the owner sets up OpenID Connect on
 * team.sso, tests the connection and proves its domains (DNS TXT records from a small DNS server
 * on loopback, WHITELABEL_DNS_SERVERS); a new person signs in from /login → /auth with a work
 * e-mail, through the provider (tests/helpers/oidc-provider.ts) and /s/auth/redirect into the
 * workspace. An existing account (the owner) signs in with SSO only after linking the provider in
 * its security settings, its password confirmed first (issue #26, N1).
 */
describe('single sign-on', () => {
  let server: RunningServer;
  let provider: OidcProvider;
  let browser: Browser;
  let teamId = 0;
  let teamName = '';
  let dns: Awaited<ReturnType<typeof startDns>>;
  const records = new Map<string, string>();

  beforeAll(async () => {
    provider = await startOidcProvider();
    dns = await startDns(records);
    server = await startServer({ SSO_ALLOW_PRIVATE_ISSUERS: 'true', WHITELABEL_DNS_SERVERS: `127.0.0.1:${dns.port}` });
    browser = await launchBrowser();
    const login = await (await fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...DEMO, grantType: 'password' }) })).json();
    const mine = await (await fetch(`${server.url}/api/me/workspaces`, { headers: { authorization: `Bearer ${login.access_token}` } })).json();
    const team = mine.data.find((w: { user_role?: string }) => w.user_role === 'owner') ?? mine.data[0];
    teamId = team.id;
    teamName = team.name;
  });
  afterAll(async () => {
    dns?.close();
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
    await page.getByLabel('Allowed e-mail domains').fill('sso.example.test, cairn.local');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expectToast(page, 'Single sign-on settings saved.');
    // Each domain proves itself with the TXT record the screen shows.
    for (const domain of ['sso.example.test', 'cairn.local']) {
      const row = page.getByTestId(`sso-domain-${domain}`);
      await expect.poll(() => row.textContent()).toContain('Not verified');
      const [record, value] = await row.locator('code').allTextContents();
      records.set(record!, value!);
    }
    await page.getByRole('button', { name: 'Check DNS records' }).click();
    await expectToast(page, 'Every domain is verified.');
    await expect.poll(() => page.getByTestId('sso-domain-cairn.local').textContent()).toContain('Verified');
    await expect.poll(() => page.getByTestId('sso-domain-cairn.local').textContent()).not.toContain('Not verified');
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

  it('an existing account signs in with single sign-on only after it linked the provider itself', async () => {
    provider.user = { sub: 'demo-owner-1', email: DEMO.email, email_verified: true, name: 'Demo' };
    // Not linked: the provider's word for the address is not enough.
    const before = await browser.newContext();
    const tryIt = await before.newPage();
    await tryIt.goto(`${server.url}/auth`);
    await tryIt.getByLabel('Work e-mail').fill(DEMO.email);
    await tryIt.getByRole('button', { name: 'Continue with single sign-on' }).click();
    await expect.poll(() => tryIt.getByTestId('sso-error').textContent(), { timeout: 30_000 }).toContain('link this identity provider in your security settings first');
    await before.close();

    // The owner links it: password confirmed, then the provider, then back to the security settings.
    const owner = await browser.newContext();
    const page = await owner.newPage();
    await loginThroughUi(page, server.url);
    await page.goto(`${server.url}/profile/security`);
    const linkButton = page.getByRole('button', { name: `Link the identity provider of ${teamName}` });
    await linkButton.click();
    await expectScreen(page, 'auth.reauthenticate');
    await page.getByLabel('Password').fill(DEMO.password);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL(/\/profile\/security$/, { timeout: 30_000 });
    await linkButton.click();
    await expectToast(page, 'The identity provider is linked to your account.');
    await page.waitForURL(/\/profile\/security$/, { timeout: 30_000 });
    await expect.poll(() => page.getByTestId('sso-links').textContent()).toContain(`Linked: ${provider.issuer}`);
    await expectAccessible(page, 'profile.security');
    await owner.close();

    // Now the provider signs the owner in.
    const after = await browser.newContext();
    const signIn = await after.newPage();
    await signIn.goto(`${server.url}/auth`);
    await signIn.getByLabel('Work e-mail').fill(DEMO.email);
    await signIn.getByRole('button', { name: 'Continue with single sign-on' }).click();
    await signIn.waitForURL(new RegExp(`/team/${teamId}$`), { timeout: 30_000 });
    const me = await signIn.evaluate(async () => {
      const refreshed = await (await fetch('/api/auth/refresh', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json();
      return (await (await fetch('/api/me', { headers: { authorization: `Bearer ${refreshed.access_token}` } })).json()).email;
    });
    expect(me).toBe(DEMO.email);
    await after.close();
  });
});
