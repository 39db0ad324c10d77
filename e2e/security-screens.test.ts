import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, apiLogin, createBoardByApi, signedInPage, startWorld, USERS, type BoardWorld } from './boards-helpers';

/**
 * Issue #26 (N8, N10, N12) on the screens, in Chromium against the real server:
 * - the tokens screen offers the `billing` ability (off by default) and a token made there does
 *   what its abilities say: a read-and-write token can neither open a board to the public through
 *   a folder save nor read the subscription, one with Administration and Billing can; the consent
 *   screen names Billing when an app asks for it;
 * - the referral screen: a second invitation to the same address within the week is refused and
 *   says so, the one mail has a fixed subject (the sender's free-text name only in the body), and
 *   a credit from a plan the referred person bought is shown as held.
 */
describe('token abilities and referral screens', () => {
  let world: BoardWorld;

  const call = (token: string, method: string, url: string, body?: unknown) =>
    fetch(world.server.url + url, { method, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
  /** The mails the server wrote to its outbox (no SMTP in tests), oldest first. */
  const outbox = () => {
    const dir = path.join(world.server.dataDir, 'outbox');
    if (!fs.existsSync(dir)) return [] as { to: string; subject: string; text: string }[];
    return fs
      .readdirSync(dir)
      .filter((n) => n.endsWith('.json'))
      .sort()
      .map((n) => JSON.parse(fs.readFileSync(path.join(dir, n), 'utf8')) as { to: string; subject: string; text: string });
  };

  beforeAll(async () => {
    world = await startWorld();
  }, 400_000);
  afterAll(async () => world?.close());

  it('makes tokens with and without Administration and Billing on the tokens screen, and each does what it says', async () => {
    const { context, page, errors } = await signedInPage(world, USERS.owner);
    const session = await apiLogin(world.server.url, USERS.owner);
    const boardId = await createBoardByApi(world, session, 'Token board');
    const board = { id: boardId, board_id: boardId, parent_id: null, name: 'Token board' };
    const openToPublic = (token: string, rowVersion: number) => call(token, 'PUT', `/api/${world.teamId}/folders/${boardId}`, { ...board, is_public: true, row_version: rowVersion });

    await page.goto(`${world.server.url}/profile/developer/tokens`);
    const billing = page.getByRole('checkbox', { name: /^Billing/ });
    const admin = page.getByRole('checkbox', { name: /^Administration/ });
    await billing.waitFor();
    // Money is never a default: only read and write are ticked.
    expect(await billing.isChecked()).toBe(false);
    expect(await admin.isChecked()).toBe(false);
    expect(await page.getByRole('checkbox', { name: /^Write/ }).isChecked()).toBe(true);
    expect(await page.locator('label', { has: billing }).textContent()).toContain('Buy, change and cancel plans, manage payment cards and read invoices');

    // A read-and-write token.
    await page.getByLabel('Name').fill('writer');
    await page.getByRole('button', { name: 'Create token' }).click();
    const writer = await page.getByTestId('new-token').inputValue();
    expect(writer).toMatch(/^cairn_pat_/);
    expect(await page.locator('tr[data-token="writer"] td').nth(1).textContent()).toBe('Read, Write');
    // N8: a folder save that opens the board to the public needs admin; plans and cards need billing.
    const refused = await openToPublic(writer, 2);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('"admin"');
    for (const [method, url] of [['GET', '/api/subscription'], ['GET', '/api/payment/methods'], ['POST', '/api/subscription']] as const) {
      const res = await call(writer, method, url, method === 'POST' ? { plan: 'pro', price: 'pro-month-usd' } : undefined);
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(await res.text(), `${method} ${url}`).toContain('"billing"');
    }
    // Its other saves still work: a rename of the same board.
    expect((await call(writer, 'PUT', `/api/${world.teamId}/folders/${boardId}`, { ...board, name: 'Token board renamed', row_version: 2 })).status).toBe(200);

    // A token with Administration and Billing ticked on the screen.
    await page.getByLabel('Name').fill('admin and billing');
    await admin.check();
    await billing.check();
    await page.getByRole('button', { name: 'Create token' }).click();
    await expect.poll(() => page.getByTestId('new-token').inputValue()).not.toBe(writer);
    const full = await page.getByTestId('new-token').inputValue();
    expect(await page.locator('tr[data-token="admin and billing"] td').nth(1).textContent()).toBe('Read, Write, Administration, Billing');
    const opened = await openToPublic(full, 3);
    expect(opened.status, await opened.clone().text()).toBe(200);
    expect((await opened.json()).data.is_public).toBe(true);
    expect((await call(full, 'GET', '/api/subscription')).status).toBe(200);
    expect((await call(full, 'GET', '/api/payment/methods')).status).toBe(200);

    // The consent screen names Billing when an app asks for it.
    const app = await apiCall(world.server.url, session, 'POST', '/api/me/oauth-apps', { name: 'Billing reader', redirect_uris: ['https://billing-reader.example.test/callback'] });
    const clientId = (app.data ?? app).client_id as string;
    const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: 'https://billing-reader.example.test/callback', scope: 'read billing', state: 's', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' });
    await page.goto(`${world.server.url}/oauth/authorize?${query}`);
    await page.getByTestId('consent').getByRole('heading', { name: 'Allow Billing reader to use your Cairn account?' }).waitFor();
    const asked = await page.getByTestId('consent-abilities').textContent();
    expect(asked).toContain('Billing');
    expect(asked).toContain('Buy, change and cancel plans');
    expect(asked).not.toContain('Administration');
    expect(errors).toEqual([]);
    await context.close();
  }, 300_000);

  it('refuses a second referral mail to one address within the week, keeps the subject fixed, and shows a new credit as held', async () => {
    const session = await apiLogin(world.server.url, USERS.owner);
    // The sender's name is free text: the review put a phishing line in it (N10).
    const lure = 'URGENT: your account is locked, verify at http://evil.test/login';
    await apiCall(world.server.url, session, 'PUT', '/api/me', { name: lure });
    const { context, page, errors } = await signedInPage(world, USERS.owner);
    await page.goto(`${world.server.url}/profile/referral`);
    const emails = page.getByLabel('Emails');
    await emails.waitFor();

    const address = `again-${Date.now().toString(36)}@example.test`;
    await emails.fill(address);
    await page.getByRole('button', { name: 'Send invitations' }).click();
    await page.getByRole('table', { name: 'Invitations' }).getByRole('cell', { name: address }).waitFor();
    // The same address again: refused in place, and no second mail.
    await emails.fill(address);
    await page.getByRole('button', { name: 'Send invitations' }).click();
    await page.getByRole('alert').getByText(`Not invited (already have an account, your own address, invited in the last week, or your daily limit reached): ${address}`).waitFor();
    await expect.poll(() => outbox().filter((m) => m.to === address).length).toBe(1);
    // Another sender cannot mail that address this week either (a slot of the recipient).
    const other = await apiLogin(world.server.url, USERS.admin);
    const answer = await apiCall(world.server.url, other, 'POST', '/api/referral/invite', { emails: address });
    expect((answer.data ?? answer).skipped).toEqual([{ email: address, reason: 'recently_invited' }]);
    const mails = outbox().filter((m) => m.to === address);
    expect(mails.length).toBe(1);
    expect(mails[0]!.subject).toBe('You are invited to Cairn');
    expect(mails[0]!.subject).not.toContain('evil.test');
    expect(mails[0]!.text).toContain(lure);

    // N12: someone signs up through the link and buys a plan; the credit is held, not yet earned.
    const code = ((await apiCall(world.server.url, session, 'GET', '/api/referral')).data as { code: string }).code;
    const buyerEmail = `buyer-${Date.now().toString(36)}@example.test`;
    const registered = await fetch(`${world.server.url}/api/auth/register`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.77' }, body: JSON.stringify({ email: buyerEmail, name: 'Buyer', password: 'buyer-password-1', referral: code, grantType: 'password' }) });
    expect(registered.status, await registered.clone().text()).toBe(201);
    const buyer = (await registered.json()).access_token as string;
    const card = await apiCall(world.server.url, buyer, 'POST', '/api/payment/methods', { card: { number: '4242 4242 4242 4242', exp_month: 11, exp_year: 2098, cvc: '321' } });
    const bought = await apiCall(world.server.url, buyer, 'POST', '/api/subscription', { plan: 'pro', price: 'pro-month-usd', card_id: (card.data ?? card).id });
    const share = Math.round(bought.invoice.total * 0.2);
    await expect.poll(async () => ((await apiCall(world.server.url, session, 'GET', '/api/referral')).data as { held: unknown[] }).held, { timeout: 60_000 }).toEqual([{ currency: 'USD', amount: share }]);
    await page.reload();
    const held = page.getByTestId('referral-held');
    await held.waitFor();
    expect(await held.textContent()).toContain('Held until the invoices are past their 14-day refund window');
    expect(await held.textContent()).toContain((share / 100).toFixed(2));
    expect(errors).toEqual([]);
    await context.close();
  }, 300_000);
});
