import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { seedDemo } from '../../server/demo/seed';
import { DEMO_BOARD_NAME } from '../../server/sync/demo';
import { issueTokens } from '../../server/auth/tokens';

/** The demo board of the first start, served through the sync endpoints. */
describe('sync: demo board', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server.close());

  it('seeds "Product roadmap" once, with attributes, items and values readable by the demo user', async () => {
    const login = await seedDemo(server.ctx);
    await seedDemo(server.ctx); // a second start adds nothing
    const user = await server.ctx.db.selectFrom('users').select('id').where('email', '=', login.email).executeTakeFirstOrThrow();
    const team = await server.ctx.db.selectFrom('teams').select('id').where('owner_id', '=', user.id).executeTakeFirstOrThrow();
    const token = (await issueTokens(server.ctx.db, user.id, server.ctx.now())).access_token;

    const boards = (await api(server.app, 'GET', `/api/${team.id}/folders`, { token })).json().data.filter((f: any) => f.name === DEMO_BOARD_NAME);
    expect(boards).toHaveLength(1);
    const boardId = boards[0].id;
    const load = async (route: string) => (await api(server.app, 'GET', `/api/${team.id}/${route}?board_id=${boardId}`, { token })).json().data as any[];
    expect((await load('attributes')).map((a) => a.name).sort()).toEqual(['Due date', 'Owner', 'Status']);
    const items = await load('items');
    expect(items.length).toBeGreaterThanOrEqual(6);
    expect(items.length).toBeLessThanOrEqual(8);
    expect(await load('values')).toHaveLength(items.length * 3);
  });
});
