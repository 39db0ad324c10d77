import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { board, item, teamWithRoles, type TeamFixture } from './sync-fixtures';
import { DELETED_ACCOUNT_NAME, GUEST_USER, personName, REMOVED_USER_NAME } from '../../schema/special-users';
import { AUTOBOT_USER_ID } from '../../schema/automations';

/**
 * W3.3, W8.4: the activity answer names the actors whose account the server does not find
 * (deleted_user_ids), so the app shows "Deleted Account" for them and "Removed User" for someone it
 * knows who is no member; the guest is {id: null, name: Guest}.
 */
describe('people the workspace no longer has', () => {
  let server: TestServer;
  let t: TeamFixture;
  const put = (route: string, rec: Record<string, unknown> & { id: string }, token = t.owner.token) => api(server.app, 'PUT', `/api/${t.teamId}/${route}/${rec.id}`, { token, body: rec });

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
  });
  afterAll(() => server.close());

  it('lists the actors whose account is gone, and only those', async () => {
    const b = board();
    const byFull = item(b.id, { name: 'By the full member' });
    const byGone = item(b.id, { name: 'By someone gone' });
    expect((await put('folders', b)).statusCode).toBe(200);
    expect((await put('items', byFull, t.full.token)).statusCode).toBe(200);
    expect((await put('items', byGone, t.admin.token)).statusCode).toBe(200);
    // No route deletes an account: the event of one whose account no longer exists is made by hand.
    const goneId = 2_000_000_001;
    await server.ctx.db.updateTable('domain_events').set({ actor_id: goneId }).where('item_id', '=', byGone.id).execute();

    const res = await api(server.app, 'GET', `/api/${t.teamId}/activity?board_id=${b.id}`, { token: t.owner.token });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.data.map((e: any) => e.actor_id)).toEqual(expect.arrayContaining([t.full.user.id, goneId]));
    expect(body.deleted_user_ids).toEqual([goneId]);

    // The names the app shows for them.
    const members = new Map([[t.owner.user.id, 'Owner']]);
    const deleted = new Set<number>(body.deleted_user_ids);
    const name = (id: number | null) => personName(id, (x) => members.get(x), (x) => deleted.has(x));
    expect(name(t.owner.user.id)).toBe('Owner');
    expect(name(t.full.user.id)).toBe(REMOVED_USER_NAME);
    expect(name(goneId)).toBe(DELETED_ACCOUNT_NAME);
    expect(name(null)).toBe('Guest');
    expect(name(AUTOBOT_USER_ID)).toBe('Autobot');
    expect(GUEST_USER).toEqual({ id: null, name: 'Guest' });
    expect([REMOVED_USER_NAME, DELETED_ACCOUNT_NAME]).toEqual(['Removed User', 'Deleted Account']);
  });
});
