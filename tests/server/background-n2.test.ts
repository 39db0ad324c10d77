import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTOBOT_USER_ID, type AutomationRun } from '../../schema/automations';
import type { Notification } from '../../schema/notifications';
import { api, createTestServer, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { addMember, board, createTeam, folder, item, newId, type SignedIn } from './sync-fixtures';

/**
 * Security review finding N2 (../shared/reviews/security.md): automations acted as the workspace
 * owner. Its steps, as written there, must no longer work: a run acts with its author's rights of
 * now (server/sync/actor.ts), and an automation whose author lost MANAGE_AUTOMATIONS or left is
 * switched off with a notice to the board's admins.
 */

describe('N2: automations act as their author', () => {
  let server: TestServer;
  let teamId: number;
  let owner: SignedIn; // O
  let admin: SignedIn; // A
  let member: SignedIn; // M: full member, not in the hidden folder F
  let insider: SignedIn; // M2: full member, in F

  async function put(route: string, body: Record<string, unknown>, who: SignedIn) {
    const res = await api(server.app, 'PUT', `/api/${teamId}/${route}/${encodeURIComponent(String(body.id))}`, { token: who.token, body });
    expect(res.statusCode, `${route}: ${res.body}`).toBe(200);
    return res.json().data as Record<string, any>;
  }
  const status = async (route: string, body: Record<string, unknown>, who: SignedIn) =>
    (await api(server.app, 'PUT', `/api/${teamId}/${route}/${encodeURIComponent(String(body.id))}`, { token: who.token, body })).statusCode;
  const drain = () => server.ctx.jobs.drain();
  const stored = async (collection: string, id: string) =>
    (await server.ctx.db.selectFrom('records').select(['data', 'created_by', 'row_version']).where('collection', '=', collection).where('id', '=', id).executeTakeFirst()) ?? null;
  const itemsOf = async (boardId: string, who: SignedIn) => {
    const res = await api(server.app, 'GET', `/api/${teamId}/items?board_id=${boardId}`, { token: who.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { id: string; name: string; folder_id: string }[];
  };
  const inbox = async (who: SignedIn) => (await api(server.app, 'GET', '/api/notifications?limit=100', { token: who.token })).json().data as Notification[];
  const runs = async (boardId: string, automationId: string) =>
    (await api(server.app, 'GET', `/api/${teamId}/automations/runs?board_id=${boardId}&automation_id=${automationId}&limit=100`, { token: owner.token })).json().data as AutomationRun[];
  let order = 0;
  const automation = (boardId: string, fields: Record<string, unknown>) => ({ id: newId(), board_id: boardId, name: 'Rule', enabled: true, conditions: [], match: 'all', position: order++, row_version: 1, ...fields });

  /** Board B with hidden folder F (owner and M2) holding item I1, and open folder G. */
  async function world() {
    const b = board({ name: 'B' });
    await put('folders', b, owner);
    const f = folder(b.id, { name: 'F' });
    await put('folders', f, owner);
    const g = folder(b.id, { name: 'G' });
    await put('folders', g, owner);
    return { b, f, g };
  }
  async function hide(f: Record<string, unknown>) {
    const now = (await stored('folder', String(f.id)))!;
    await put('folders', { ...(now.data as object), hidden: true, user_ids: [owner.user.id, insider.user.id], row_version: now.row_version + 1 }, owner);
  }

  beforeAll(async () => {
    server = await createTestServer();
    owner = await createUserWithToken(server.ctx, { name: 'Olga' });
    admin = await createUserWithToken(server.ctx, { name: 'Ada' });
    member = await createUserWithToken(server.ctx, { name: 'Max' });
    insider = await createUserWithToken(server.ctx, { name: 'Mia' });
    teamId = await createTeam(server.ctx, owner.user.id);
    await addMember(server.ctx, teamId, admin.user.id, 'admin');
    await addMember(server.ctx, teamId, member.user.id, 'full-member');
    await addMember(server.ctx, teamId, insider.user.id, 'full-member');
  });
  afterAll(() => server?.close());

  it('the review’s steps: a member’s automations neither move, name nor plant anything in a folder hidden from the member', async () => {
    const { b, f, g } = await world();
    // Saving a rule that creates items in a folder M may not write is refused outright now.
    const f0 = folder(b.id, { name: 'F0', hidden: true, user_ids: [owner.user.id] });
    await put('folders', f0, owner);
    expect(await status('automations', automation(b.id, { trigger: { type: 'item_created' }, actions: [{ type: 'create_item', board_id: b.id, folder_id: f0.id, name: 'planted', values: [] }] }), member), 'create_item into a hidden folder at save').toBe(403);
    expect(await status('automations', automation(b.id, { trigger: { type: 'item_created' }, actions: [{ type: 'move_to_folder', folder_id: f0.id }] }), member), 'move_to_folder into a hidden folder at save').toBe(403);

    const i1 = item(b.id, { folder_id: f.id, name: 'SECRET hidden item one' });
    await put('items', i1, owner);
    await drain();
    // Step 1, while F was still open to M (so the save-time check passes; the run must judge again).
    const mover = await put('automations', automation(b.id, { name: 'move', trigger: { type: 'item_created' }, actions: [{ type: 'move_to_folder', folder_id: g.id }] }), member);
    const teller = await put('automations', automation(b.id, { name: 'tell', trigger: { type: 'comment_added' }, actions: [{ type: 'notify', user_ids: [member.user.id], on: 'board', message: 'comment on {{item.name}}' }] }), member);
    const planter = await put('automations', automation(b.id, { name: 'plant', trigger: { type: 'item_created' }, actions: [{ type: 'create_item', board_id: b.id, folder_id: f.id, name: 'planted into hidden F by M', values: [] }] }), member);
    await drain();
    await hide(f);
    expect(await status('items', item(b.id, { folder_id: f.id }), member), 'M may not create in F').toBe(403);

    // Step 2: O works as usual.
    const secret = item(b.id, { folder_id: f.id, name: 'SECRET new hidden item (created after the rule)' });
    await put('items', secret, owner);
    await put('comments', { id: newId(), board_id: b.id, item_id: i1.id, parent_id: null, text: { html: '<p>hush</p>' }, row_version: 1 }, owner);
    const open = item(b.id, { folder_id: g.id, name: 'open item' });
    await put('items', open, owner);
    await drain();

    // Step 3: nothing left F, M was told no hidden name, nothing was planted in F.
    expect((await stored('item', secret.id))!.data).toMatchObject({ folder_id: f.id });
    expect((await itemsOf(b.id, member)).map((i) => i.name)).not.toContain('SECRET new hidden item (created after the rule)');
    expect(JSON.stringify(await inbox(member))).not.toContain('SECRET');
    const planted = await server.ctx.db.selectFrom('records').select('id').where('collection', '=', 'item').where('board_id', '=', b.id).where(({ ref }) => ref('data', '->>').key('name' as never), '=', 'planted into hidden F by M' as never).execute();
    expect(planted, 'nothing planted into F').toHaveLength(0);
    // The runs say why.
    expect((await runs(b.id, mover.id)).find((r) => r.item_id === secret.id)).toMatchObject({ result: 'skipped', error: expect.stringContaining('may not read') });
    expect((await runs(b.id, teller.id)).find((r) => r.item_id === i1.id)).toMatchObject({ result: 'skipped' });
    expect((await runs(b.id, planter.id)).find((r) => r.item_id === open.id)).toMatchObject({ result: 'failed', error: expect.stringContaining('403') });
    // M's automations still work where M may work (the open item was created, moved into G already: no write).
    const insiderRule = await put('automations', automation(b.id, { name: 'insider', trigger: { type: 'item_created' }, actions: [{ type: 'add_comment', text: 'seen {{item.name}}' }] }), insider);
    const another = item(b.id, { folder_id: f.id, name: 'SECRET for M2' });
    await put('items', another, owner);
    await drain();
    expect((await runs(b.id, insiderRule.id)).find((r) => r.item_id === another.id)).toMatchObject({ result: 'done' });
    const comment = await server.ctx.db.selectFrom('records').select(['created_by', 'data']).where('collection', '=', 'comment').where(({ ref }) => ref('data', '->>').key('item_id' as never), '=', another.id as never).executeTakeFirstOrThrow();
    expect(comment.created_by, 'Autobot stays the author shown').toBe(AUTOBOT_USER_ID);
    for (const rule of [mover, teller, planter, insiderRule]) {
      const now = (await stored('automation', rule.id))!;
      await put('automations', { ...(now.data as object), enabled: false, row_version: now.row_version + 1 }, owner);
    }
  });

  it('switches an automation off when its author loses MANAGE_AUTOMATIONS or leaves, and tells the board’s admins', async () => {
    const { b, g } = await world();
    const demoted = await createUserWithToken(server.ctx, { name: 'Dee' });
    const leaver = await createUserWithToken(server.ctx, { name: 'Lee' });
    await addMember(server.ctx, teamId, demoted.user.id, 'full-member');
    await addMember(server.ctx, teamId, leaver.user.id, 'full-member');
    const r1 = await put('automations', automation(b.id, { name: 'Dee’s rule', trigger: { type: 'item_created' }, actions: [{ type: 'add_comment', text: 'hi' }] }), demoted);
    const r2 = await put('automations', automation(b.id, { name: 'Lee’s rule', trigger: { type: 'item_created' }, actions: [{ type: 'add_comment', text: 'hi' }] }), leaver);
    await server.ctx.db.updateTable('team_members').set({ role: 'restricted-member' }).where('team_id', '=', teamId).where('user_id', '=', demoted.user.id).execute();
    await server.ctx.db.deleteFrom('team_members').where('team_id', '=', teamId).where('user_id', '=', leaver.user.id).execute();

    const it1 = item(b.id, { folder_id: g.id, name: 'after the change' });
    await put('items', it1, owner);
    await drain();
    for (const rule of [r1, r2]) {
      expect((await stored('automation', rule.id))!.data, `${rule.name} is off`).toMatchObject({ enabled: false });
      expect((await runs(b.id, rule.id))[0]).toMatchObject({ result: 'skipped', error: expect.stringContaining('switched off') });
    }
    const comments = await server.ctx.db.selectFrom('records').select('id').where('collection', '=', 'comment').where(({ ref }) => ref('data', '->>').key('item_id' as never), '=', it1.id as never).execute();
    expect(comments, 'no action ran').toHaveLength(0);
    for (const who of [owner, admin]) {
      const notes = (await inbox(who)).filter((n) => n.notification_type === 'automation_board' && n.board_id === b.id);
      expect(notes.map((n) => n.body).join('\n'), `${who.user.name} is told`).toContain('Dee’s rule');
      expect(notes.map((n) => n.body).join('\n')).toContain('Lee’s rule');
    }
    expect((await inbox(member)).filter((n) => n.board_id === b.id && n.notification_type === 'automation_board'), 'not told to members').toHaveLength(0);
  });
});
