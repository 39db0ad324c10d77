import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';

/** The built app's files as the server hands them out: /sw.js never cached, the SPA rules intact. */
describe('service worker and app files', () => {
  let server: TestServer;
  let webDir: string;
  beforeAll(async () => {
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-web-'));
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.writeFileSync(path.join(webDir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
    fs.writeFileSync(path.join(webDir, 'assets', 'index-abc12345.js'), 'console.log(1);');
    fs.writeFileSync(path.join(webDir, 'assets', 'plain.js'), 'console.log(2);');
    fs.writeFileSync(path.join(webDir, 'theme-boot.js'), 'console.log(3);');
    server = await createTestServer({ config: { webDir } });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it('serves /sw.js with no-cache and Service-Worker-Allowed: /', async () => {
    const res = await api(server.app, 'GET', '/sw.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['service-worker-allowed']).toBe('/');
  });

  it('caches built files named by their hash for a year, the rest is revalidated', async () => {
    const res = await api(server.app, 'GET', '/assets/index-abc12345.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['service-worker-allowed']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // A name without a content hash may change content under the same name: revalidated.
    const plain = await api(server.app, 'GET', '/assets/plain.js');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['cache-control']).toBe('public, max-age=0');
    const root = await api(server.app, 'GET', '/theme-boot.js');
    expect(root.headers['cache-control']).toBe('public, max-age=0');
  });

  it('keeps the SPA fallback and the 404 rules', async () => {
    const home = await api(server.app, 'GET', '/home');
    expect(home.statusCode).toBe(200);
    expect(home.headers['content-type']).toMatch(/text\/html/);
    const unknown = await api(server.app, 'GET', '/no/such/page');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/text\/html/);
    const asset = await api(server.app, 'GET', '/assets/missing-123.js');
    expect(asset.statusCode).toBe(404);
    expect(asset.json()).toEqual({ message: 'Not Found', type: 'not_found' });
  });
});
