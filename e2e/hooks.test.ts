import http from 'node:http';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signedInPage, startWorld, USERS, type BoardWorld } from './boards-helpers';

/**
 * Webhooks end to end (issue #14), in Chromium against the real server: a hook created on
 * /profile/developer/hooks shows its secret once, "Send test" reaches a real local receiver with a
 * body signed by that secret, and the attempt appears on the hook's logs page.
 */
describe('webhooks', () => {
  let world: BoardWorld;
  let page: Page;
  let errors: string[];
  let receiver: http.Server;
  let target: string;
  const received: { headers: http.IncomingHttpHeaders; raw: string }[] = [];

  beforeAll(async () => {
    // Loopback targets are allowed only with this setting (development and tests).
    world = await startWorld({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' });
    ({ page, errors } = await signedInPage(world, USERS.owner));
    receiver = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ headers: request.headers, raw: Buffer.concat(chunks).toString('utf8') });
        response.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/cairn-hook`;
  });
  afterAll(async () => {
    receiver?.close();
    await world?.close();
  });

  it('creates a hook, sends a signed test delivery and shows it in the logs', async () => {
    await page.goto(`${world.server.url}/profile/developer`);
    await page.getByRole('link', { name: 'Webhooks' }).first().click();
    await page.waitForURL(/\/profile\/developer\/hooks$/);
    // At once, as a person would: the form shows only once the user's workspaces are known (a hook
    // made before went to no workspace and was refused, seen as no secret in a loaded CI run).
    await page.getByLabel('Payload URL').fill(target);
    await page.getByRole('checkbox', { name: /comment\.created/ }).check();
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const secretField = page.getByTestId('hook-secret');
    await secretField.waitFor({ timeout: 60_000 }).catch(async (error: Error) => {
      const form = await page.locator('form.developer-form').textContent().catch(() => '(no form)');
      throw new Error(`the new hook's signing secret (data-testid hook-secret) did not show after Create webhook: ${error.message.split('\n')[0]}\nthe form shows: ${form}`);
    });
    const secret = await secretField.inputValue();
    expect(secret.length).toBeGreaterThanOrEqual(32);
    await page.locator(`tr[data-hook="${target}"]`).waitFor();

    await page.getByRole('link', { name: 'Open the new webhook' }).click();
    await page.waitForURL(/\/profile\/developer\/hooks\/[^/]+$/);
    await page.getByRole('button', { name: 'Send test' }).click();
    await page.getByText('Connection successful!').first().waitFor();
    expect(received).toHaveLength(1);
    const [got] = received;
    expect(got!.headers['x-cairn-event']).toBe('hook.test');
    expect(got!.headers['x-cairn-signature']).toBe(`sha256=${crypto.createHmac('sha256', secret).update(got!.raw).digest('hex')}`);

    await page.getByRole('link', { name: 'Logs' }).click();
    await page.waitForURL(/\/logs$/);
    const row = page.locator('[data-testid="hook-logs"] tbody tr').first();
    await row.waitFor();
    expect(await row.getAttribute('data-log-status')).toBe('success');
    expect(await row.textContent()).toContain('hook.test');
    expect(await row.textContent()).toContain('200');
    await row.locator('summary').click();
    expect(await row.locator('pre').first().textContent()).toContain(JSON.parse(got!.raw).id);
    expect(errors).toEqual([]);
  });
});
