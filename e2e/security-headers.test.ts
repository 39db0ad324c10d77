import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, startServer, type RunningServer } from './helpers';
import { apiCall, apiLogin, createBoardByApi, createItemByApi, rowByName, USERS, type BoardWorld } from './boards-helpers';

/**
 * The built app under the server's Content-Security-Policy (decision 0092), in Chromium: the login
 * page (with the demo hint this server offers), the board, the SharedWorker's sync and realtime
 * socket and the service worker all run without a single CSP violation, in the page or in any
 * worker, and the headers are on what the browser received.
 */
const DIST = path.resolve(process.env.WEB_DIR ?? 'dist');
const CSP_MESSAGE = /Content Security Policy|Refused to/i;

/** The CSP issue Chromium reports over CDP (Audits), as one line; null for other issues. */
function cspIssue(issue: { code?: string; details?: any }): string | null {
  if (issue.code !== 'ContentSecurityPolicyIssue') return null;
  const d = issue.details.contentSecurityPolicyIssueDetails;
  return `${d.contentSecurityPolicyViolationType} (${d.violatedDirective}) ${d.blockedURL ?? ''} at ${d.sourceCodeLocation?.url ?? '?'}`;
}

/**
 * CSP violations reported so far in every worker of the browser (shared, dedicated, service).
 * Page init scripts do not reach workers, and a refused eval that the code catches logs nothing,
 * so this attaches to each worker over CDP and reads Chromium's issues (Audits), which are
 * replayed on enable. It attaches only at the end: a debugger attached to the SharedWorker while
 * pages come and go stalls it.
 */
async function workerViolations(browser: Browser): Promise<string[]> {
  const cdp = await browser.newBrowserCDPSession();
  const found: string[] = [];
  cdp.on('Target.receivedMessageFromTarget', ({ message }) => {
    const msg = JSON.parse(message) as { method?: string; params?: any };
    if (msg.method === 'Audits.issueAdded') {
      const issue = cspIssue(msg.params.issue);
      if (issue) found.push(`worker: ${issue}`);
    }
    if (msg.method === 'Log.entryAdded' && CSP_MESSAGE.test(String(msg.params.entry.text))) found.push(`worker log: ${msg.params.entry.text}`);
  });
  const { targetInfos } = await cdp.send('Target.getTargets');
  const workers = targetInfos.filter((t) => ['shared_worker', 'service_worker', 'worker'].includes(t.type));
  for (const worker of workers) {
    const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: worker.targetId, flatten: false });
    for (const [id, method] of ['Audits.enable', 'Log.enable'].entries()) await cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: id + 1, method }) });
  }
  await new Promise((resolve) => setTimeout(resolve, 1000)); // the replayed issues arrive as events
  await cdp.detach();
  expect(workers.map((w) => w.type)).toContain('shared_worker'); // the watch saw the sync engine
  return found;
}

describe('security headers and the CSP in the browser', () => {
  let server: RunningServer;
  let browser: Browser;
  const violations: string[] = [];

  beforeAll(async () => {
    server = await startServer({ WEB_DIR: DIST });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('runs the app, its workers and the realtime socket without a CSP violation', async () => {
    const context = await browser.newContext();
    await context.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} blocked ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`));
    });
    const page = await context.newPage();
    const pageCdp = await context.newCDPSession(page);
    pageCdp.on('Audits.issueAdded', ({ issue }) => {
      const found = cspIssue(issue);
      if (found) violations.push(`page: ${found}`);
    });
    await pageCdp.send('Audits.enable');
    page.on('console', (message) => {
      if (CSP_MESSAGE.test(message.text())) violations.push(`console: ${message.text()}`);
    });
    const collectPageViolations = async () =>
      violations.push(...(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)).map((v) => `page event: ${v}`));
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    // A step that fails shows what the CSP refused until then: that is usually why.
    const step = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
      try {
        return await run();
      } catch (error) {
        const seen = [...violations, ...(await workerViolations(browser).catch(() => []))];
        throw new Error(`${what}: ${String(error)}\nCSP violations so far: ${JSON.stringify(seen)}\npage errors: ${JSON.stringify(pageErrors)}`);
      }
    };

    // The app shell and its headers, as the browser got them.
    const shell = await page.goto(server.url + '/login');
    const headers = shell!.headers();
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['strict-transport-security']).toBeUndefined(); // plain http here

    // This server seeds the demo accounts, so the login page offers them.
    const hint = page.getByTestId('demo-login');
    await expect.poll(() => hint.textContent(), { timeout: 15_000 }).toContain(USERS.owner);
    await hint.getByRole('button', { name: 'Fill in' }).click();
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/home$/);

    // The demo board, through the sidebar and the SharedWorker's replica.
    await step('open the demo board', async () => {
      await page.getByRole('link', { name: 'Product roadmap' }).first().click();
      await page.waitForURL(/\/b\/[A-Za-z0-9_-]+$/);
      await page.getByTestId('table-view').waitFor();
      await expect.poll(() => page.locator('.table-row').count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(7);
    });

    // A board with an item-name column; an item made elsewhere arrives over the realtime
    // WebSocket (connect-src) while it is open.
    const token = await apiLogin(server.url, USERS.owner);
    const mine = await apiCall(server.url, token, 'GET', '/api/me/workspaces');
    const world = { server, teamId: (mine.data ?? mine)[0].id as number } as BoardWorld;
    const boardId = await createBoardByApi(world, token, 'Board under the CSP');
    await createItemByApi(world, token, boardId, 'Loaded under the CSP');
    await step('open a second board', async () => {
      await collectPageViolations(); // a navigation starts a new document and a new list
      await page.goto(`${server.url}/b/${boardId}`);
      await rowByName(page, 'Loaded under the CSP').waitFor({ timeout: 30_000 });
    });
    await page.waitForTimeout(3000); // the board channel is authorised in 2 s batches (boards-sync.test.ts)
    await createItemByApi(world, token, boardId, 'Arrived live under the CSP');
    await step('receive an item live', () => rowByName(page, 'Arrived live under the CSP').waitFor({ timeout: 20_000 }));

    // The service worker installed and took control under the same policy.
    await step('service worker ready', () =>
      page.evaluate(async () => {
        await navigator.serviceWorker.ready;
      }),
    );

    await collectPageViolations();
    violations.push(...(await workerViolations(browser)));
    expect(violations).toEqual([]);
    await context.close();
  });

  it('puts the headers on the service worker script and on API answers', async () => {
    for (const url of ['/sw.js', '/api/app-vars']) {
      const res = await fetch(server.url + url);
      expect(res.headers.get('content-security-policy'), url).toContain("default-src 'self'");
      expect(res.headers.get('x-content-type-options'), url).toBe('nosniff');
      expect(res.headers.get('x-frame-options'), url).toBe('DENY');
    }
  });
});
