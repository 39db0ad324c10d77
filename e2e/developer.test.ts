import http from 'node:http';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signedInPage, startWorld, USERS, type BoardWorld } from './boards-helpers';

/**
 * Issue #14 end to end, in Chromium against the real server: a personal access token made on the
 * tokens screen works with fetch and stops working once revoked there; an OAuth app registered on
 * the apps screen runs the consent screen through to a code, the code is exchanged for a token
 * that works, and revoking the app on /profile/applications ends it.
 */
describe('developer area', () => {
  let world: BoardWorld;
  let page: Page;
  let errors: string[];
  let receiver: http.Server;
  let callback: string;

  const call = (token: string, path: string) => fetch(world.server.url + path, { headers: { authorization: `Bearer ${token}` } });
  const confirmDialog = async (label: string) => {
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: label }).click();
    await dialog.waitFor({ state: 'detached' });
  };

  beforeAll(async () => {
    world = await startWorld();
    ({ page, errors } = await signedInPage(world, USERS.owner));
    // The OAuth app's redirect target: a local page that only says it got the code.
    receiver = http.createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('received'));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    callback = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callback`;
    // Long enough for a busy machine (the server start alone can take two minutes there).
  }, 400_000);
  afterAll(async () => {
    receiver?.close();
    await world?.close();
  });

  it('creates a personal token on the tokens screen; it works with fetch until revoked there', async () => {
    await page.goto(`${world.server.url}/profile/developer`);
    await page.getByRole('link', { name: 'Access tokens' }).first().click();
    await page.waitForURL(/\/profile\/developer\/tokens$/);
    await page.getByLabel('Name').fill('e2e script');
    await page.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByTestId('new-token');
    await shown.waitFor();
    const token = await shown.inputValue();
    expect(token).toMatch(/^cairn_pat_/);
    await page.locator('tr[data-token="e2e script"]').waitFor();

    const workspaces = await call(token, '/api/me/workspaces');
    expect(workspaces.status).toBe(200);
    const me = await (await call(token, '/api/me')).json();
    expect(me.email ?? me.data?.email).toBe(USERS.owner);
    // The default abilities read and write; account routes stay closed to tokens.
    expect((await call(token, '/api/me/tokens')).status).toBe(403);

    // Last used shows up after a reload; revoking ends it.
    await page.reload();
    const row = page.locator('tr[data-token="e2e script"]');
    await row.waitFor();
    expect(await row.textContent()).not.toContain('Never used');
    await row.getByRole('button', { name: 'Revoke' }).click();
    await confirmDialog('Revoke');
    await row.waitFor({ state: 'detached' });
    expect((await call(token, '/api/me/workspaces')).status).toBe(401);
  });

  it('registers an OAuth app, runs the consent screen to a code, exchanges it, and revokes the app', async () => {
    await page.goto(`${world.server.url}/profile/developer/apps`);
    await page.getByLabel('App name').fill('E2E Tracker');
    await page.getByLabel('Redirect URIs').fill(callback);
    await page.getByRole('button', { name: 'Register app' }).click();
    await page.getByTestId('client-secret').waitFor();
    const clientId = (await page.getByTestId('client-id').textContent())!.trim();
    const clientSecret = await page.getByTestId('client-secret').inputValue();
    expect(clientSecret).toMatch(/^cairn_cs_/);

    const verifier = crypto.randomBytes(32).toString('base64url');
    const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
    const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: callback, scope: 'read', state: 'e2e-state', code_challenge: challenge, code_challenge_method: 'S256' });
    await page.goto(`${world.server.url}/oauth/authorize?${query}`);
    const consent = page.getByTestId('consent');
    await consent.getByRole('heading', { name: 'Allow E2E Tracker to use your Cairn account?' }).waitFor();
    expect(await page.getByTestId('consent-abilities').textContent()).toContain('Read');
    await consent.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((url) => url.href.startsWith(callback));
    const back = new URL(page.url());
    expect(back.searchParams.get('state')).toBe('e2e-state');
    const code = back.searchParams.get('code')!;
    expect(code).toBeTruthy();

    const exchanged = await fetch(world.server.url + '/api/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: callback, code_verifier: verifier }),
    });
    expect(exchanged.status).toBe(200);
    const tokens = await exchanged.json();
    expect(tokens.scope).toBe('read');
    expect((await call(tokens.access_token, '/api/me/workspaces')).status).toBe(200);

    // The user sees the app on /profile/applications and revokes it there.
    await page.goto(`${world.server.url}/profile/applications`);
    const row = page.locator('tr[data-app="E2E Tracker"]');
    await row.waitFor();
    await row.getByRole('button', { name: 'Revoke' }).click();
    await confirmDialog('Revoke');
    await row.waitFor({ state: 'detached' });
    expect((await call(tokens.access_token, '/api/me/workspaces')).status).toBe(401);
    expect(errors).toEqual([]);
  });

  it('serves the API documentation page under the CSP', async () => {
    const docs = await world.browser.newPage();
    const violations: string[] = [];
    docs.on('console', (message) => message.type() === 'error' && violations.push(message.text()));
    await docs.goto(`${world.server.url}/api/docs`);
    await docs.getByRole('heading', { name: 'Operations' }).waitFor();
    await docs.getByText('Create a personal access token').first().click();
    // The operation opens with its body schema and answers, all rendered as elements.
    const operation = docs.locator('details.op[open]').first();
    await operation.getByRole('heading', { name: 'Body (application/json)' }).waitFor();
    expect(await operation.textContent()).not.toContain('[object');
    await docs.getByLabel('Filter operations').fill('oauth token');
    await docs.getByText('/api/oauth/token').first().waitFor();
    expect(violations).toEqual([]);
    await docs.close();
  });
});
