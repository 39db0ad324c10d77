import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { board, item, teamWithRoles, type TeamFixture } from './sync-fixtures';
import { AUTOBOT_USER_ID } from '../../schema/automations';
import { DELETED_ACCOUNT_NAME, personName, REMOVED_USER_NAME } from '../../schema/special-users';

/**
 * W3.3, W8.4 for the conflict inbox (issue #30): GET /api/me/conflicts names, among the people whose
 * save won a conflict of mine, those whose account the server no longer finds (deleted_user_ids),
 * so the inbox shows "Deleted Account" for them and "Removed User" for someone it knows who is no
 * member, with the same naming as the activity log (schema/special-users.ts).
 */
describe('conflicts name a winner whose account is gone', () => {
  let server: TestServer;
  let t: TeamFixture;

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
  });
  afterAll(() => server.close());

  it('lists the winners whose account is gone, and only those', async () => {
    const b = board();
    const it1 = item(b.id, { name: 'Budget line' });
    expect((await api(server.app, 'PUT', `/api/${t.teamId}/folders/${b.id}`, { token: t.owner.token, body: b })).statusCode).toBe(200);
    expect((await api(server.app, 'PUT', `/api/${t.teamId}/items/${it1.id}`, { token: t.owner.token, body: it1 })).statusCode).toBe(200);
    // No route deletes an account: a winner whose account no longer exists is an id no user has.
    const goneId = 2_000_000_001;
    const report = (key: string, theirsBy: number | null) =>
      api(server.app, 'POST', `/api/${t.teamId}/conflicts`, {
        token: t.owner.token,
        body: { key, kind: 'field', collection: 'item', id: it1.id, item_id: it1.id, attribute_id: null, field: 'name', text: true, mine: 'Mine', theirs: 'Theirs', base: 'Budget line', theirs_by: theirsBy, theirs_at: null, theirs_row_version: 2 },
      });
    for (const [key, by] of [['conflict-gone-1', goneId], ['conflict-full-1', t.full.user.id], ['conflict-bot-1', AUTOBOT_USER_ID], ['conflict-none-1', null]] as const) {
      const res = await report(key, by);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data.added).toBe(true);
    }

    const listed = await api(server.app, 'GET', '/api/me/conflicts', { token: t.owner.token });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().data.map((c: { theirs_by: number | null }) => c.theirs_by)).toEqual(expect.arrayContaining([goneId, t.full.user.id, AUTOBOT_USER_ID, null]));
    expect(listed.json().deleted_user_ids).toEqual([goneId]);

    // The names the inbox shows for them (the same function as the activity log's).
    const deleted = new Set<number>(listed.json().deleted_user_ids);
    const name = (id: number) => personName(id, () => undefined, (x) => deleted.has(x));
    expect(name(goneId)).toBe(DELETED_ACCOUNT_NAME);
    expect(name(t.full.user.id)).toBe(REMOVED_USER_NAME);
    expect(name(AUTOBOT_USER_ID)).toBe('Autobot');

    // Someone with no conflicts: an empty list, nobody deleted.
    const none = await api(server.app, 'GET', '/api/me/conflicts', { token: t.admin.token });
    expect(none.json()).toEqual({ data: [], deleted_user_ids: [] });
  });
});
