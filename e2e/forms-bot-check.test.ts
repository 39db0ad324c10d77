import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, apiLogin, createBoardByApi, newId, startWorld, USERS, type BoardWorld } from './boards-helpers';

/**
 * The public form's bot check in Chromium (issue #13, decision 0211) against a local stand-in for
 * the provider on 127.0.0.1 (another origin than the app): its widget script, loaded by the
 * server's form page, asks its own origin for a token (connect-src), opens a frame (frame-src) and
 * puts the token in a hidden `x-response` field of the element it looks for; its verify endpoint
 * accepts only that token with our secret. An anonymous visitor's answer goes through; one sent
 * without the widget (its script blocked, or JavaScript off) is refused with a clear message.
 */
const TOKEN = 'token-from-widget';
const WIDGET_JS = `(() => {
  const origin = new URL(document.currentScript.src).origin;
  for (const el of document.querySelectorAll('.x-widget')) {
    fetch(origin + '/challenge?sitekey=' + encodeURIComponent(el.dataset.sitekey)).then((r) => r.json()).then(({ token }) => {
      const frame = document.createElement('iframe');
      frame.src = origin + '/frame';
      frame.title = 'Bot check';
      el.appendChild(frame);
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = 'x-response';
      input.value = token;
      el.appendChild(input);
      el.dataset.ready = 'true';
    });
  }
})();`;

describe('public form bot check', () => {
  let world: BoardWorld;
  let provider: http.Server;
  let providerOrigin: string;
  let formId: string;
  let owner: string;
  let boardId: string;
  const verified: string[] = [];

  beforeAll(async () => {
    provider = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/api.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(WIDGET_JS);
      if (url.pathname === '/challenge') return res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' }).end(JSON.stringify({ token: url.searchParams.get('sitekey') === 'site-h12' ? TOKEN : 'wrong-sitekey' }));
      if (url.pathname === '/frame') return res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Bot check</title><p>OK</p>');
      if (url.pathname === '/siteverify' && req.method === 'POST') {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          const form = new URLSearchParams(body);
          verified.push(form.get('response') ?? '');
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: form.get('secret') === 'h12-secret' && form.get('response') === TOKEN }));
        });
        return;
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
    providerOrigin = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
    world = await startWorld({
      BOT_CHECK_SITEKEY: 'site-h12',
      BOT_CHECK_SECRET: 'h12-secret',
      BOT_CHECK_VERIFY_URL: `${providerOrigin}/siteverify`,
      BOT_CHECK_SCRIPT_URL: `${providerOrigin}/api.js`,
      BOT_CHECK_WIDGET_CLASS: 'x-widget',
      BOT_CHECK_ALLOWED_HOSTS: '127.0.0.1', // the provider stand-in listens on loopback (decision 0355)
    });
    owner = await apiLogin(world.server.url, USERS.owner);
    boardId = await createBoardByApi(world, owner, 'Bot-checked requests');
    formId = newId('f');
    await apiCall(world.server.url, owner, 'PUT', `/api/${world.teamId}/folder-views/${formId}`, { id: formId, board_id: boardId, folder_id: boardId, name: 'Checked form', kind: 'form', position: 1, settings: { enabled: true }, row_version: 1 });
  }, 300_000);
  afterAll(async () => {
    await world?.close();
    await new Promise((resolve) => provider?.close(resolve));
  });

  const itemNames = async () => ((await apiCall(world.server.url, owner, 'GET', `/api/${world.teamId}/items?board_id=${boardId}`)).data as { name: string }[]).map((i) => i.name);

  it('an anonymous visitor’s answer passes with the widget’s token; without it, it is refused with a clear message', async () => {
    const context = await world.browser.newContext();
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(String(e)));
    // The browser's own favicon probe is the one 404 a server page has.
    page.on('response', (r) => r.status() >= 400 && !r.url().endsWith('/favicon.ico') && problems.push(`${r.status()} ${r.url()}`));
    const response = await page.goto(`${world.server.url}/form/${formId}`);
    const csp = String(response?.headers()['content-security-policy']);
    expect(csp).toContain(`script-src 'self' ${providerOrigin}`);
    expect(csp).toContain(`frame-src 'self' ${providerOrigin}`);
    // The widget ran under the page's policy: token fetched, frame shown, hidden field added.
    await page.locator('.x-widget[data-ready="true"]').waitFor({ timeout: 30_000 });
    expect(await page.locator('input[name="x-response"]').inputValue()).toBe(TOKEN);
    await expect.poll(() => page.frameLocator('.x-widget iframe').getByText('OK').count(), { timeout: 15_000 }).toBe(1);
    await page.locator('input[type=text]').first().fill('Checked by the widget');
    await page.getByTestId('public-form-submit').click();
    await page.getByTestId('public-form-sent').waitFor({ timeout: 30_000 });
    expect(problems.filter((p) => !p.startsWith('Failed to load resource') || p.includes('Content Security Policy'))).toEqual([]);
    expect(verified).toContain(TOKEN);
    expect(await itemNames()).toContain('Checked by the widget');
    await context.close();

    // The widget's script never arrives (blocked): the answer goes without a token and is refused.
    const blocked = await world.browser.newContext();
    await blocked.route(`${providerOrigin}/api.js`, (route) => route.abort());
    const noWidget = await blocked.newPage();
    await noWidget.goto(`${world.server.url}/form/${formId}`);
    await noWidget.locator('input[type=text]').first().fill('Sent without a token');
    await noWidget.getByTestId('public-form-submit').click();
    await expect.poll(() => noWidget.getByTestId('public-form-error').textContent(), { timeout: 15_000 }).toBe('The bot check did not pass. Please try again.');
    expect(await noWidget.locator('input[type=text]').first().inputValue()).toBe('Sent without a token');
    await blocked.close();

    // JavaScript off, in German: the page says up front that the form needs it, and refuses too.
    const plain = await world.browser.newContext({ javaScriptEnabled: false, locale: 'de' });
    const noJs = await plain.newPage();
    await noJs.goto(`${world.server.url}/form/${formId}`);
    expect(await noJs.getByTestId('public-form-needs-js').textContent()).toBe('Dieses Formular braucht JavaScript für seine Bot-Prüfung. Schalten Sie JavaScript ein und laden Sie die Seite dann neu.');
    await noJs.locator('input[type=text]').first().fill('Sent with JavaScript off');
    await noJs.getByTestId('public-form-submit').click();
    await expect.poll(() => noJs.getByTestId('public-form-error').textContent(), { timeout: 15_000 }).toBe('Die Bot-Prüfung ist fehlgeschlagen. Bitte versuchen Sie es erneut.');
    await plain.close();

    const names = await itemNames();
    expect(names).not.toContain('Sent without a token');
    expect(names).not.toContain('Sent with JavaScript off');
  }, 240_000);
});
