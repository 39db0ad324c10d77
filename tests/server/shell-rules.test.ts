import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { updateHeaders } from '../../server/shell/settings';

/** The server side of shell.md's rules (decision 0230): status message, client log, additional script, update headers. */
describe('shell rules on the server', () => {
  let server: TestServer;
  const ADMIN = 'admin-token-for-tests';
  const admin = { authorization: `Bearer ${ADMIN}` };
  const set = (body: unknown) => api(server.app, 'PUT', '/ops/shell-settings', { headers: admin, body });

  beforeAll(async () => {
    server = await createTestServer({ config: { adminToken: ADMIN } });
  });
  afterAll(() => server.close());

  it('answers the status message with 204 while none is set, its content once set, 204 again when cleared', async () => {
    expect((await api(server.app, 'GET', '/message')).statusCode).toBe(204);
    expect((await set({ message: 'Maintenance at 18:00 UTC' })).statusCode).toBe(200);
    const shown = await api(server.app, 'GET', '/message');
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual({ content: 'Maintenance at 18:00 UTC' });
    expect(shown.headers['cache-control']).toBe('no-store');
    await set({ message: '   ' });
    expect((await api(server.app, 'GET', '/message')).statusCode).toBe(204);
    await set({ message: null });
    expect((await api(server.app, 'GET', '/message')).statusCode).toBe(204);
  });

  it('guards the settings: a wrong token is 401, bad values are a 422 naming the field, nothing changes', async () => {
    expect((await api(server.app, 'PUT', '/ops/shell-settings', { body: { message: 'x' } })).statusCode).toBe(401);
    expect((await api(server.app, 'PUT', '/ops/shell-settings', { headers: { authorization: 'Bearer nope' }, body: { message: 'x' } })).statusCode).toBe(401);
    const bad = await set({ update: 'sometimes' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toContain('update');
    expect((await set({ colour: 'red' })).statusCode).toBe(422);
    expect((await api(server.app, 'GET', '/ops/shell-settings', { headers: admin })).json().data.update).toBe('off');
  });

  it('is off (404) on a server without ADMIN_TOKEN', async () => {
    const plain = await createTestServer();
    try {
      expect((await api(plain.app, 'PUT', '/ops/shell-settings', { headers: admin, body: { message: 'x' } })).statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });

  it('takes client events and error reports on PUT /api/log, signed in or not, and refuses a nameless one', async () => {
    const ok = await api(server.app, 'PUT', '/api/log', { body: { name: 'client.error', properties: { message: 'x is undefined', stack: 'a'.repeat(10_000) } } });
    expect(ok.statusCode).toBe(204);
    const bad = await api(server.app, 'PUT', '/api/log', { body: { properties: {} } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toContain('name');
  });

  it('serves the additional script only when set, and app-vars says whether to load it', async () => {
    expect((await api(server.app, 'GET', '/api/additional-scripts.js')).statusCode).toBe(204);
    expect((await api(server.app, 'GET', '/api/app-vars')).json().additionalScripts).toBe(false);
    await set({ additional_scripts: 'window.__extra = 1;' });
    const script = await api(server.app, 'GET', '/api/additional-scripts.js');
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toContain('application/javascript');
    expect(script.body).toBe('window.__extra = 1;');
    expect((await api(server.app, 'GET', '/api/app-vars')).json().additionalScripts).toBe(true);
    await set({ additional_scripts: null });
  });

  it('tells clients of another version to update, as the setting says, and never the current one', async () => {
    const current = server.ctx.config.appVersion;
    const ask = (version: string) => api(server.app, 'GET', '/api/app-vars', { headers: { 'x-client-version': version } });
    expect((await ask('1.0.0')).headers['x-update-required']).toBeUndefined();
    await set({ update: 'prompt' });
    expect((await ask('1.0.0')).headers['x-update-required']).toBe('1');
    expect((await ask(current)).headers['x-update-required']).toBeUndefined();
    await set({ update: 'force' });
    expect((await ask('1.0.0')).headers['x-update-required']).toBe('force');
    await set({ update: 'now' });
    const now = await ask('1.0.0');
    expect(now.headers['x-force-reload']).toBe('1');
    expect((await ask(current)).headers['x-force-reload']).toBeUndefined();
    await set({ update: 'off' });
    expect((await ask('1.0.0')).headers['x-force-reload']).toBeUndefined();
  });

  it('update headers as a pure rule', () => {
    expect(updateHeaders('force', undefined, '2')).toEqual({});
    expect(updateHeaders('force', ' 2 ', '2')).toEqual({});
    expect(updateHeaders('prompt', '1', '2')).toEqual({ 'x-update-required': '1' });
  });
});
