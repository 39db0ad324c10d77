import { sql } from 'kysely';
import { nanoid } from 'nanoid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestServer, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { buildWorld, put, type World } from './authz-fixtures';
import { addMember } from './sync-fixtures';

/**
 * The authorisation matrix over a background actor (issue #26 part 11, N2): an automation of each
 * action kind, authored by each role, runs on an item in an open folder and on one in a hidden
 * folder. A run acts with its author's rights of now (server/sync/actor.ts): it is done where the
 * author may read the item and write the target, skipped where they may not read it, failed (403)
 * where they may not write, and an author without MANAGE_AUTOMATIONS has the automation switched off.
 */

const AUTHORS = ['owner', 'admin', 'full-member', 'full-member-in-hidden', 'restricted-member', 'guest'] as const;
type Author = (typeof AUTHORS)[number];
/** Who may read the hidden folder (the world's: owner and admin; plus the member put in it here). */
const IN_HIDDEN = new Set<Author>(['owner', 'admin', 'full-member-in-hidden']);
/** Who holds MANAGE_AUTOMATIONS on the board by the role defaults. */
const MANAGES = new Set<Author>(['owner', 'admin', 'full-member', 'full-member-in-hidden']);

describe('authorisation matrix: automations as background actors', () => {
  let server: TestServer;
  let w: World;
  let authorIds: Record<Author, number>;
  let membersAttribute: string;

  beforeAll(async () => {
    // Billing off: the top plan's limits, so 84 runs fit in the month.
    server = await createTestServer({ config: { billing: false } as never });
    w = await buildWorld(server.app, server.ctx);
    const inside = await createUserWithToken(server.ctx);
    await addMember(server.ctx, w.teamId, inside.user.id, 'full-member');
    // The board's member list first: a folder's members must be members of its parent (W5.25).
    const board = (await server.ctx.db.selectFrom('records').select(['data']).where('collection', '=', 'folder').where('id', '=', w.boardId).executeTakeFirstOrThrow()).data as { user_ids?: number[] };
    const members = await api(server.app, 'PUT', '/api/users', { token: w.users.owner.token, body: { board_id: w.boardId, user_ids: [...(board.user_ids ?? []), inside.user.id] } });
    expect(members.statusCode, members.body).toBe(200);
    // Then the hidden folder's.
    const hidden = (await server.ctx.db.selectFrom('records').select(['data', 'row_version']).where('collection', '=', 'folder').where('id', '=', w.hidden.folderId).executeTakeFirstOrThrow());
    const data = hidden.data as Record<string, unknown> & { id: string; user_ids: number[] };
    await put(w, 'folders', { ...data, user_ids: [...data.user_ids, inside.user.id], row_version: hidden.row_version + 1 }, w.users.owner.token);
    authorIds = {
      owner: w.users.owner.user.id,
      admin: w.users.admin.user.id,
      'full-member': w.users['full-member'].user.id,
      'full-member-in-hidden': inside.user.id,
      'restricted-member': w.users['restricted-member'].user.id,
      guest: w.users.guest.user.id,
    };
    membersAttribute = (await put(w, 'attributes', { id: 'ppl' + nanoid(10), board_id: w.boardId, folder_id: w.boardId, name: 'People', kind: 'members', row_version: 1 }, w.users.owner.token)).id;
  }, 240_000);
  afterAll(() => server?.close());

  it('each action kind, each author role, on an open and on a hidden item', async () => {
    // Each author's rules start from a button of their own, clicked on an open and a hidden item of
    // their own: clicks come only from people, so no action fires a rule again, and one author's
    // move cannot change what another author's run finds.
    const textAttribute = 'txt' + nanoid(10);
    await put(w, 'attributes', { id: textAttribute, board_id: w.boardId, folder_id: w.boardId, name: 'Matrix notes', kind: 'text', row_version: 1 }, w.users.owner.token);
    const actions: Record<string, Record<string, unknown>> = {
      set_value: { type: 'set_value', attribute_id: textAttribute, value: 'set by the rule' },
      assign: { type: 'assign', attribute_id: membersAttribute, user_ids: [w.users.owner.user.id] },
      move_to_folder: { type: 'move_to_folder', folder_id: w.folderId },
      create_item: { type: 'create_item', board_id: w.boardId, folder_id: w.folderId, name: 'made from {{item.name}}', values: [] },
      create_item_hidden: { type: 'create_item', board_id: w.boardId, folder_id: w.hidden.folderId, name: 'made in hidden', values: [] },
      add_comment: { type: 'add_comment', text: 'seen {{item.name}}' },
      notify: { type: 'notify', user_ids: [w.users.owner.user.id], on: 'item', message: 'about {{item.name}}' },
    };
    // Saved by the owner (the saving check is another test), then authored by each role, as when
    // the author's rights changed after the save.
    const rules: { author: Author; kind: string; id: string; open: string; hidden: string }[] = [];
    const clicks: [string, string][] = [];
    for (const author of AUTHORS) {
      const button = 'btn' + nanoid(10);
      await put(w, 'attributes', { id: button, board_id: w.boardId, folder_id: w.boardId, name: `Button of ${author}`, kind: 'button', row_version: 1 }, w.users.owner.token);
      const open = (await put(w, 'items', { id: 'it' + nanoid(12), board_id: w.boardId, folder_id: w.folderId, name: `open item of ${author}`, row_version: 1 }, w.users.owner.token)).id;
      const hidden = (await put(w, 'items', { id: 'it' + nanoid(12), board_id: w.boardId, folder_id: w.hidden.folderId, name: `hidden item of ${author}`, row_version: 1 }, w.users.owner.token)).id;
      clicks.push([open, button], [hidden, button]);
      for (const [kind, action] of Object.entries(actions)) {
        const id = 'au' + nanoid(12);
        await put(w, 'automations', { id, board_id: w.boardId, name: `${author} ${kind}`, enabled: true, trigger: { type: 'button_clicked', attribute_id: button }, conditions: [], match: 'all', actions: [action], position: rules.length, row_version: 1 }, w.users.owner.token);
        await sql`update records set created_by = ${authorIds[author]}, data = jsonb_set(data, '{created_by}', to_jsonb(${authorIds[author]}::int)) where collection = 'automation' and id = ${id}`.execute(server.ctx.db);
        rules.push({ author, kind, id, open, hidden });
      }
    }
    await server.ctx.jobs.drain();
    // The open items are clicked first: an author's rules are switched off by their first run.
    for (const [itemId, button] of [...clicks.filter((_, i) => i % 2 === 0), ...clicks.filter((_, i) => i % 2 === 1)]) {
      await put(w, 'button-clicks', { id: 'bc' + nanoid(12), board_id: w.boardId, item_id: itemId, attribute_id: button, row_version: 1 }, w.users.owner.token);
      await server.ctx.jobs.drain();
    }

    const runs = await server.ctx.db.selectFrom('automation_runs').select(['automation_id', 'item_id', 'result', 'error']).where('board_id', '=', w.boardId).execute();
    const outcome = (id: string, itemId: string) => runs.find((r) => r.automation_id === id && r.item_id === itemId);
    const table: string[] = [];
    for (const rule of rules) {
      const enabled = ((await server.ctx.db.selectFrom('records').select('data').where('id', '=', rule.id).executeTakeFirstOrThrow()).data as { enabled: boolean }).enabled;
      const onOpen = outcome(rule.id, rule.open);
      const onHidden = outcome(rule.id, rule.hidden);
      table.push(`${rule.author} ${rule.kind}: ${onOpen?.result ?? '-'} / ${onHidden?.result ?? '-'} ${enabled ? '' : '(off)'}`);
      const where = `${rule.author} ${rule.kind}`;
      if (!MANAGES.has(rule.author)) {
        expect(enabled, `${where}: switched off`).toBe(false);
        expect(onOpen, where).toMatchObject({ result: 'skipped', error: expect.stringContaining('switched off') });
        expect(onHidden, `${where}: no run after it was switched off`).toBeUndefined();
        continue;
      }
      expect(enabled, where).toBe(true);
      // Writing into the hidden folder is the author's right only when they are in it.
      const writesHidden = rule.kind === 'create_item_hidden';
      expect(onOpen?.result, `${where} on the open item: ${onOpen?.error}`).toBe(writesHidden && !IN_HIDDEN.has(rule.author) ? 'failed' : 'done');
      if (!IN_HIDDEN.has(rule.author)) expect(onHidden, `${where} on the hidden item`).toMatchObject({ result: 'skipped', error: expect.stringContaining('may not read') });
      else expect(onHidden?.result, `${where} on the hidden item: ${onHidden?.error}`).toBe('done');
    }
    // Nothing named the hidden item where an author outside the folder could read it.
    const made = await server.ctx.db.selectFrom('records').select(['data']).where('collection', '=', 'item').where('board_id', '=', w.boardId).execute();
    const fromHidden = made.map((r) => String((r.data as { name: string }).name)).filter((n) => n.startsWith('made from hidden item of'));
    // Made from a hidden item only by authors who may read it (owner, admin, the member inside).
    expect(fromHidden.sort(), table.join('\n')).toEqual(['admin', 'full-member-in-hidden', 'owner'].map((a) => `made from hidden item of ${a}`));
  }, 240_000);
});
