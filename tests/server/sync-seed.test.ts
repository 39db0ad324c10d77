import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { seedDemo } from '../../server/demo/seed';
import { DEMO_BOARD_NAME, DEMO_BUG_BOARD_NAME } from '../../server/sync/demo';
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
    const attributes = await load('attributes');
    expect(attributes.map((a) => a.name).sort()).toEqual(['Due date', 'Name', 'Owner', 'Status']);
    // The name attribute: the table shows item names (issue #17).
    expect(attributes.filter((a) => a.kind === 'primary')).toHaveLength(1);
    const status = attributes.find((a) => a.name === 'Status');
    expect(status.settings.options.map((o: any) => o.name)).toEqual(['To do', 'In progress', 'Done', 'Stuck']);
    const items = await load('items');
    expect(items.length).toBeGreaterThanOrEqual(6);
    expect(items.length).toBeLessThanOrEqual(8);
    expect(await load('values')).toHaveLength(items.length * 3);
    expect((await load('folder-views')).map((v) => v.kind)).toEqual(expect.arrayContaining(['table', 'column']));
    expect((await load('comments')).length).toBeGreaterThan(0);
  });

  it('seeds a second board, "Bug tracker", with its name attribute and several views', async () => {
    await seedDemo(server.ctx);
    const user = await server.ctx.db.selectFrom('users').select('id').where('email', '=', 'demo@cairn.local').executeTakeFirstOrThrow();
    const team = await server.ctx.db.selectFrom('teams').select('id').where('owner_id', '=', user.id).executeTakeFirstOrThrow();
    const token = (await issueTokens(server.ctx.db, user.id, server.ctx.now())).access_token;
    const boards = (await api(server.app, 'GET', `/api/${team.id}/folders`, { token })).json().data.filter((f: any) => f.name === DEMO_BUG_BOARD_NAME);
    expect(boards).toHaveLength(1);
    const load = async (route: string) => (await api(server.app, 'GET', `/api/${team.id}/${route}?board_id=${boards[0].id}`, { token })).json().data as any[];
    expect((await load('attributes')).filter((a) => a.kind === 'primary')).toHaveLength(1);
    expect((await load('folder-views')).length).toBeGreaterThanOrEqual(3);
    expect((await load('items')).every((i) => i.name.length > 0)).toBe(true);
  });
});
