import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';

describe('server core', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server.close());

  it('answers app-vars with the app version and broadcasting settings', async () => {
    const res = await api(server.app, 'GET', '/api/app-vars');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body['app.version']).toBe('34.3.6');
    expect(body.broadcasting.key).toBe('cairn-key');
  });

  it('answers unknown API paths with a 404 in the error shape', async () => {
    const res = await api(server.app, 'GET', '/api/nope');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Not Found', type: 'not_found' });
  });

  it('runs every migration on the database', async () => {
    const { rows } = await (await import('kysely')).sql<{ name: string }>`select name from _migrations order by name`.execute(server.ctx.db);
    expect(rows.map((r) => r.name)).toContain('0001_accounts');
  });
});
