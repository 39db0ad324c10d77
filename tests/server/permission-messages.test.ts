import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { entryKey } from '../../schema/permissions';
import { board, item, newId, teamWithRoles, type TeamFixture } from './sync-fixtures';

/**
 * W8.8: a refusal to create items, create views, update the workspace or add or remove reactions
 * says so in the spec's words; someone who cannot see the board still gets the generic refusal.
 */
describe('specific permission messages', () => {
  let server: TestServer;
  let t: TeamFixture;
  const put = (route: string, rec: { id: string; [k: string]: unknown }, token: string) => api(server.app, 'PUT', `/api/${t.teamId}/${route}/${rec.id}`, { token, body: rec });
  const refusal = (message: string) => ({ message, type: 'unauthorized' });

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
  });
  afterAll(() => server.close());

  it('names the missing right on items, views and reactions', async () => {
    const denied = { [entryKey('CREATE_ITEM', 'role', 'full-member')]: 'deny', [entryKey('ADD_REACTION', 'role', 'full-member')]: 'deny' };
    const b = board({ permissions: denied });
    const i = item(b.id);
    expect((await put('folders', b, t.owner.token)).statusCode).toBe(200);
    expect((await put('items', i, t.owner.token)).statusCode).toBe(200);

    const newItem = await put('items', item(b.id), t.full.token);
    expect(newItem.statusCode).toBe(403);
    expect(newItem.json()).toEqual(refusal('You have no permission to create items.'));

    const view = await put('folder-views', { id: newId(), board_id: b.id, folder_id: b.id, name: 'V', kind: 'table', row_version: 1 }, t.restricted.token);
    expect(view.statusCode).toBe(403);
    expect(view.json()).toEqual(refusal('You have no permission to create views.'));

    const commentId = newId();
    expect((await put('comments', { id: commentId, text: { html: 'hi' }, board_id: b.id, item_id: i.id, parent_id: null }, t.owner.token)).statusCode).toBe(200);
    const reaction = await put('comment-reaction', { id: newId(), comment_id: commentId, reaction: '👍' }, t.full.token);
    expect(reaction.statusCode).toBe(403);
    expect(reaction.json()).toEqual(refusal('You have no permission to add or remove reactions.'));

    // Someone outside the workspace learns nothing about the board's rules.
    expect((await put('items', item(b.id), t.stranger.token)).json()).toEqual(refusal('This action is unauthorized.'));
  });

  it('names the missing right on the workspace settings', async () => {
    const res = await api(server.app, 'PUT', `/api/teams/${t.teamId}`, { token: t.full.token, body: { name: 'Mine' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(refusal('You have no permission to update the workspace.'));
  });
});
