import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notification } from '../../schema/notifications';
import { TemplateMessages, type TemplateDetail, type TemplateSummary } from '../../schema/templates';
import { primaryAttributeIdFor } from '../../schema/board-defaults';
import { builtinContent, BUILTIN_FILES } from '../../server/templates/builtin';
import { api, createTestServer, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { waitFor } from '../helpers/wait';
import { addMember, attribute, board, createTeam, folder, item, newId, value, type SignedIn } from './sync-fixtures';

/**
 * Templates and board duplication against the real server (PGlite, and PostgreSQL with
 * TEST_DATABASE_URL): save a board as a template with and without items, who may, sharing rules
 * and the "template shared" notification (from the notifications consumer), boards made from a
 * built-in and a custom template (same attributes, views and items, new ids), and duplicate as a board job (decision 0160).
 */

describe('templates', () => {
  let server: TestServer;
  let teamId: number;
  let otherTeamId: number;
  let alice: SignedIn; // owner of the workspace
  let bob: SignedIn; // full member
  let rita: SignedIn; // restricted member
  let olga: SignedIn; // outsider: owns another workspace

  const drain = () => server.ctx.jobs.drain();
  async function put(route: string, body: Record<string, unknown>, who: SignedIn = alice) {
    const res = await api(server.app, 'PUT', `/api/${teamId}/${route}/${encodeURIComponent(String(body.id))}`, { token: who.token, body });
    expect(res.statusCode, `${route}: ${res.body}`).toBe(200);
  }
  async function boardRecords(boardId: string) {
    const rows = await server.ctx.db.selectFrom('records').select(['collection', 'id', 'data']).where('board_id', '=', boardId).where('deleted_at', 'is', null).execute();
    const of = (collection: string) => rows.filter((r) => r.collection === collection).map((r) => r.data as Record<string, any>);
    return { folders: of('folder'), attributes: of('attribute'), views: of('folder_view'), items: of('item'), values: of('value') };
  }
  /** A board's shape without ids: what a copy must equal. */
  async function shapeOf(boardId: string) {
    const r = await boardRecords(boardId);
    const attrName = new Map(r.attributes.map((a) => [a.id, a.name]));
    const itemName = new Map(r.items.map((i) => [i.id, i.name]));
    const folderName = new Map(r.folders.map((f) => [f.id, f.parent_id === null ? '(root)' : f.name]));
    const named = (settings: unknown) => JSON.parse(JSON.stringify(settings ?? {}), (_k, v) => (typeof v === 'string' && attrName.has(v) ? `attr:${attrName.get(v)}` : v));
    return {
      folders: r.folders.filter((f) => f.parent_id !== null).map((f) => `${f.name} in ${folderName.get(f.parent_id)}`).sort(),
      attributes: r.attributes.map((a) => `${a.name}|${a.kind}|${JSON.stringify(a.settings)}`).sort(),
      views: r.views.map((v) => `${v.name}|${v.kind}|${JSON.stringify(named(v.settings))}`).sort(),
      items: r.items.map((i) => `${i.name} in ${folderName.get(i.folder_id)}`).sort(),
      values: r.values.map((v) => `${itemName.get(v.item_id)}|${attrName.get(v.attribute_id)}|${JSON.stringify(v.value)}`).sort(),
      ids: [...r.folders, ...r.attributes, ...r.views, ...r.items].map((x) => x.id as string),
    };
  }

  /** A board with a subfolder, a status, a members and a text attribute, two views, three items. */
  async function sourceBoard() {
    const b = board({ name: 'Launch plan' });
    const sub = folder(b.id, { name: 'Later' });
    const status = attribute(b.id, { name: 'Status', kind: 'status', settings: { options: [{ id: 'todo', name: 'To do', color: '#D0D4E4' }, { id: 'done', name: 'Done', color: '#00854D', done: true }] } });
    const notes = attribute(b.id, { name: 'Notes', kind: 'text' });
    const people = attribute(b.id, { name: 'People', kind: 'members' });
    await put('folders', b);
    await put('folders', sub);
    for (const a of [status, notes, people]) await put('attributes', a);
    await put('folder-views', { id: newId(), board_id: b.id, folder_id: b.id, name: 'Kanban', kind: 'column', visibility: 'shared', position: 0, settings: { group_by: status.id, hidden_columns: [notes.id] }, row_version: 1 });
    await put('folder-views', { id: newId(), board_id: b.id, folder_id: b.id, name: 'Grid', kind: 'table', visibility: 'shared', position: 1, settings: { sort: [{ attribute_id: notes.id, direction: 'asc' }] }, row_version: 1 });
    const one = item(b.id, { name: 'Write the post', position: 1 });
    const two = item(b.id, { name: 'Record the demo', position: 2 });
    const three = item(b.id, { name: 'Plan the party', folder_id: sub.id, position: 1 });
    for (const i of [one, two, three]) await put('items', i);
    await put('values', value(b.id, one.id, status.id, 'done'));
    await put('values', value(b.id, one.id, notes.id, 'Draft in the wiki'));
    await put('values', value(b.id, two.id, status.id, 'todo'));
    await put('values', value(b.id, two.id, people.id, [bob.user.id]));
    await put('values', value(b.id, three.id, notes.id, 'After launch'));
    return { b, sub, status, notes, people };
  }

  beforeAll(async () => {
    server = await createTestServer();
    alice = await createUserWithToken(server.ctx, { name: 'Alice' });
    bob = await createUserWithToken(server.ctx, { name: 'Bob' });
    rita = await createUserWithToken(server.ctx, { name: 'Rita' });
    olga = await createUserWithToken(server.ctx, { name: 'Olga' });
    teamId = await createTeam(server.ctx, alice.user.id);
    otherTeamId = await createTeam(server.ctx, olga.user.id);
    await addMember(server.ctx, teamId, bob.user.id, 'full-member');
    await addMember(server.ctx, teamId, rita.user.id, 'restricted-member');
  });
  afterAll(() => server?.close());

  it('lists the built-in gallery, narrowed by tag and by words', async () => {
    const all = await api(server.app, 'GET', '/api/templates', { token: rita.token });
    expect(all.statusCode, all.body).toBe(200);
    const builtins = (all.json().data as TemplateSummary[]).filter((t) => t.builtin);
    expect(builtins.length).toBeGreaterThanOrEqual(12);
    expect(builtins.every((t) => t.counts.attributes > 0 && t.counts.views > 0 && t.counts.items > 0)).toBe(true);
    const sales = (await api(server.app, 'GET', '/api/templates?tag=sales', { token: rita.token })).json().data as TemplateSummary[];
    expect(sales.map((t) => t.id)).toContain('crm-pipeline');
    expect(sales.every((t) => t.tags.includes('sales'))).toBe(true);
    const found = (await api(server.app, 'GET', '/api/templates?q=bug%20severity', { token: rita.token })).json().data as TemplateSummary[];
    expect(found.map((t) => t.id)).toEqual(['bug-tracker']);
    expect((await api(server.app, 'GET', '/api/templates')).statusCode).toBe(401);
  });

  it('makes a board from a built-in template: its attributes, views and items with new ids, references rewritten', async () => {
    const res = await api(server.app, 'POST', `/api/${teamId}/templates/bug-tracker/use`, { token: bob.token, body: { name: 'Our bugs' } });
    expect(res.statusCode, res.body).toBe(201);
    const boardId = res.json().data.board_id as string;
    const r = await boardRecords(boardId);
    const file = BUILTIN_FILES.find((f) => f.id === 'bug-tracker')!;
    expect(r.folders.find((f) => f.id === boardId)?.name).toBe('Our bugs');
    expect(r.attributes.filter((a) => a.kind !== 'primary').map((a) => a.name).sort()).toEqual(file.attributes.map((a) => a.name).sort());
    expect(r.attributes.some((a) => a.id === primaryAttributeIdFor(boardId))).toBe(true);
    expect(r.views.map((v) => v.name).sort()).toEqual(file.views.map((v) => v.name).sort());
    expect(r.items.map((i) => i.name).sort()).toEqual(file.items.map((i) => i.name).sort());
    // No key of the data file is a record id; the Column view groups by the new Severity attribute.
    const ids = new Set([...r.attributes, ...r.views, ...r.items].map((x) => x.id));
    for (const a of file.attributes) expect(ids.has(a.id)).toBe(false);
    const severity = r.attributes.find((a) => a.name === 'Severity')!;
    expect(r.views.find((v) => v.name === 'By severity')!.settings.group_by).toBe(severity.id);
    // Relative dates became dates.
    const reported = r.attributes.find((a) => a.name === 'Reported')!;
    expect(r.values.filter((v) => v.attribute_id === reported.id).every((v) => /^\d{4}-\d{2}-\d{2}$/.test(v.value))).toBe(true);
    // Made by the caller through the save path: it is in the change feed.
    const changes = await api(server.app, 'GET', `/api/${teamId}/changes?after=0`, { token: bob.token });
    expect(changes.body).toContain(boardId);
  });

  it('refuses to make a board without CREATE_BOARD, in a workspace that is not yours, or from a template you cannot see', async () => {
    expect((await api(server.app, 'POST', `/api/${teamId}/templates/okrs/use`, { token: rita.token, body: { name: 'x' } })).statusCode).toBe(403);
    expect((await api(server.app, 'POST', `/api/${teamId}/templates/okrs/use`, { token: olga.token, body: { name: 'x' } })).statusCode).toBe(403);
    const missing = await api(server.app, 'POST', `/api/${teamId}/templates/no-such-template/use`, { token: bob.token, body: { name: 'x' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(TemplateMessages.notAvailable);
    const noName = await api(server.app, 'POST', `/api/${teamId}/templates/okrs/use`, { token: bob.token, body: { name: ' ' } });
    expect(noName.statusCode).toBe(422);
  });

  it('saves a board as a template with items, and a board made from it has the same shape with new ids (members values left out)', async () => {
    const { b } = await sourceBoard();
    const saved = await api(server.app, 'POST', `/api/${teamId}/boards/${b.id}/template`, { token: alice.token, body: { name: 'Launch', description: 'Our launch plan', with_items: true, tags: ['marketing'] } });
    expect(saved.statusCode, saved.body).toBe(200);
    const template = saved.json().data as TemplateSummary;
    expect(template.counts).toEqual({ folders: 2, attributes: 3, views: 2, items: 3 });

    const used = await api(server.app, 'POST', `/api/${teamId}/templates/${template.id}/use`, { token: alice.token, body: { name: 'Launch plan' } });
    expect(used.statusCode, used.body).toBe(201);
    const copy = await shapeOf(used.json().data.board_id);
    const source = await shapeOf(b.id);
    expect(copy.folders).toEqual(source.folders);
    expect(copy.attributes).toEqual(source.attributes);
    expect(copy.views).toEqual(source.views);
    expect(copy.items).toEqual(source.items);
    // People are of one workspace: a template leaves members values out; the rest is the same.
    expect(copy.values).toEqual(source.values.filter((v) => !v.includes('|People|')));
    expect(copy.ids.filter((id) => source.ids.includes(id))).toEqual([]);
  });

  it('saves without items, and saves one folder (with the attributes it has from the board)', async () => {
    const { b, sub } = await sourceBoard();
    const bare = (await api(server.app, 'POST', `/api/${teamId}/boards/${b.id}/template`, { token: bob.token, body: { name: 'Bare', with_items: false } })).json().data as TemplateSummary;
    expect(bare.counts).toEqual({ folders: 2, attributes: 3, views: 2, items: 0 });
    const later = await api(server.app, 'POST', `/api/${teamId}/boards/${b.id}/template`, { token: bob.token, body: { name: 'Later only', with_items: true, folder_id: sub.id } });
    expect(later.statusCode, later.body).toBe(200);
    expect((later.json().data as TemplateSummary).counts).toEqual({ folders: 1, attributes: 3, views: 0, items: 1 });
  });

  it('needs SAVE_AS_TEMPLATE on the board', async () => {
    const { b } = await sourceBoard();
    expect((await api(server.app, 'POST', `/api/${teamId}/boards/${b.id}/template`, { token: rita.token, body: { name: 'No' } })).statusCode).toBe(403);
    expect((await api(server.app, 'POST', `/api/${teamId}/boards/${b.id}/template`, { token: olga.token, body: { name: 'No' } })).statusCode).toBe(403);
    // The workspace's own entries decide: denied to full members, Bob may not either.
    const deny = await api(server.app, 'PUT', `/api/${teamId}/permissions`, { token: alice.token, body: { permissions: { 'SAVE_AS_TEMPLATE:role:full-member': 'deny' } } });
    expect(deny.statusCode, deny.body).toBe(200);
    expect((await api(server.app, 'POST', `/api/${teamId}/boards/${b.id}/template`, { token: bob.token, body: { name: 'No' } })).statusCode).toBe(403);
    await api(server.app, 'PUT', `/api/${teamId}/permissions`, { token: alice.token, body: { permissions: {} } });
  });

  it('shares: private until shared; a workspace share tells its members through the consumer; link sharing; only the owner edits', async () => {
    const { b } = await sourceBoard();
    const template = (await api(server.app, 'POST', `/api/${teamId}/boards/${b.id}/template`, { token: bob.token, body: { name: 'Bob’s plan', with_items: false } })).json().data as TemplateSummary;
    const open = (who: SignedIn) => api(server.app, 'GET', `/api/templates/${template.id}`, { token: who.token });

    // Private: only Bob.
    expect((await open(bob)).statusCode).toBe(200);
    for (const who of [alice, rita, olga]) {
      const res = await open(who);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(TemplateMessages.notAvailable);
    }
    // Sharing needs at least one workspace, and only the owner's own workspaces.
    const none = await api(server.app, 'POST', `/api/me/templates/${template.id}/share`, { token: bob.token, body: { team_ids: [] } });
    expect(none.statusCode).toBe(422);
    expect(none.body).toContain(TemplateMessages.needsWorkspace);
    expect((await api(server.app, 'POST', `/api/me/templates/${template.id}/share`, { token: bob.token, body: { team_ids: [otherTeamId] } })).statusCode).toBe(422);
    // Someone else's template: as if it did not exist.
    expect((await api(server.app, 'POST', `/api/me/templates/${template.id}/share`, { token: alice.token, body: { team_ids: [teamId] } })).statusCode).toBe(404);
    expect((await api(server.app, 'PUT', `/api/me/templates/${template.id}`, { token: alice.token, body: { name: 'Mine now' } })).statusCode).toBe(404);

    const shared = await api(server.app, 'POST', `/api/me/templates/${template.id}/share`, { token: bob.token, body: { team_ids: [teamId] } });
    expect(shared.statusCode, shared.body).toBe(200);
    expect((shared.json().data as TemplateDetail).shared_team_ids).toEqual([teamId]);
    expect((await open(alice)).statusCode).toBe(200);
    expect((await open(rita)).statusCode).toBe(200);
    expect((await open(olga)).statusCode).toBe(404);
    const sharedWithRita = (await api(server.app, 'GET', '/api/me/templates?shared=1', { token: rita.token })).json().data as TemplateSummary[];
    expect(sharedWithRita.map((t) => t.id)).toContain(template.id);

    // The notification comes from the notifications consumer: Alice and Rita, not Bob; once.
    await drain();
    const notes = async (who: SignedIn) => ((await api(server.app, 'GET', '/api/notifications', { token: who.token })).json().data as Notification[]).filter((n) => n.notification_type === 'template_shared' && n.template_id === template.id);
    await waitFor(async () => (await notes(rita)).length > 0, 10_000, 'template_shared for Rita');
    expect((await notes(alice)).map((n) => n.template_name)).toEqual(['Bob’s plan']);
    expect(await notes(bob)).toEqual([]);
    await api(server.app, 'POST', `/api/me/templates/${template.id}/share`, { token: bob.token, body: { team_ids: [teamId] } });
    await drain();
    expect(await notes(rita)).toHaveLength(1);

    // Taken out of the workspace, shared by link: anyone signed in with the link opens it.
    const edit = await api(server.app, 'PUT', `/api/me/templates/${template.id}`, { token: bob.token, body: { shared_team_ids: [], link_shared: true, name: 'Plan', description: 'For everyone', tags: ['planning'], cover_url: null } });
    expect(edit.statusCode, edit.body).toBe(200);
    expect((edit.json().data as TemplateDetail).shared_team_ids).toEqual([]);
    expect((await open(olga)).statusCode).toBe(200);
    expect((await api(server.app, 'GET', '/api/me/templates?shared=1', { token: rita.token })).json().data.map((t: TemplateSummary) => t.id)).not.toContain(template.id);
    // Olga may use it in her own workspace.
    expect((await api(server.app, 'POST', `/api/${otherTeamId}/templates/${template.id}/use`, { token: olga.token, body: { name: 'From a link' } })).statusCode).toBe(201);

    // Deleted: gone for everyone.
    expect((await api(server.app, 'DELETE', `/api/me/templates/${template.id}`, { token: bob.token })).statusCode).toBe(200);
    expect((await open(olga)).statusCode).toBe(404);
    expect((await open(bob)).statusCode).toBe(404);
  });

  it('a built-in template and its content are the same for everyone signed in', async () => {
    const res = await api(server.app, 'GET', '/api/templates/okrs', { token: olga.token });
    expect(res.statusCode).toBe(200);
    const detail = res.json().data as TemplateDetail;
    expect(detail.builtin).toBe(true);
    expect(detail.content).toEqual(builtinContent(BUILTIN_FILES.find((f) => f.id === 'okrs')!));
  });

  it('duplicates a board as a board job: same shape, new ids; without items only the structure', async () => {
    const { b } = await sourceBoard();
    const started = await api(server.app, 'POST', `/api/${teamId}/boards/${b.id}/duplicate`, { token: bob.token, body: { name: 'Launch plan (copy)' } });
    expect(started.statusCode, started.body).toBe(202);
    const { job, board_id: copyId } = started.json().data;
    await drain();
    await waitFor(async () => (await server.ctx.db.selectFrom('board_jobs').select('state').where('id', '=', job.id).executeTakeFirst())?.state === 'done', 20_000, 'duplicate done');
    const ended = await server.ctx.db.selectFrom('board_jobs').selectAll().where('id', '=', job.id).executeTakeFirstOrThrow();
    expect(ended.result).toMatchObject({ board_id: copyId, items: 3 });
    const copy = await shapeOf(copyId);
    const source = await shapeOf(b.id);
    expect({ ...copy, ids: [] }).toEqual({ ...source, ids: [] });
    expect(copy.ids.filter((id) => source.ids.includes(id))).toEqual([]);

    const bare = await api(server.app, 'POST', `/api/${teamId}/boards/${b.id}/duplicate`, { token: bob.token, body: { name: 'Structure only', with_items: false, with_views: false } });
    expect(bare.statusCode, bare.body).toBe(202);
    await drain();
    await waitFor(async () => (await server.ctx.db.selectFrom('board_jobs').select('state').where('id', '=', bare.json().data.job.id).executeTakeFirst())?.state === 'done', 20_000, 'structure-only duplicate done');
    const structure = await boardRecords(bare.json().data.board_id);
    expect(structure.items).toEqual([]);
    expect(structure.views).toEqual([]);
    expect(structure.folders).toHaveLength(2);
    expect(structure.attributes).toHaveLength(4); // with its own name attribute
  });

  it('refuses a duplicate without CREATE_BOARD or by someone outside the workspace', async () => {
    const { b } = await sourceBoard();
    expect((await api(server.app, 'POST', `/api/${teamId}/boards/${b.id}/duplicate`, { token: rita.token, body: { name: 'x' } })).statusCode).toBe(403);
    expect((await api(server.app, 'POST', `/api/${teamId}/boards/${b.id}/duplicate`, { token: olga.token, body: { name: 'x' } })).statusCode).toBe(403);
    expect((await api(server.app, 'POST', `/api/${teamId}/boards/${b.id}/duplicate`, { body: { name: 'x' } })).statusCode).toBe(401);
  });

  it('duplicates a board of 250 items in slices with progress, and a cancelled duplicate leaves no board', async () => {
    const b = board({ name: 'Big' });
    await put('folders', b);
    const status = attribute(b.id, { name: 'Status', kind: 'status', settings: { options: [{ id: 'todo', name: 'To do', color: '#D0D4E4' }] } });
    await put('attributes', status);
    const items = Array.from({ length: 250 }, (_, i) => item(b.id, { name: `Item ${i + 1}`, position: i + 1 }));
    const saved = await api(server.app, 'PUT', `/api/${teamId}/items`, { token: alice.token, body: items });
    expect(saved.statusCode, saved.body.slice(0, 200)).toBe(200);
    const values = items.slice(0, 100).map((i) => value(b.id, i.id, status.id, 'todo'));
    expect((await api(server.app, 'PUT', `/api/${teamId}/values`, { token: alice.token, body: values })).statusCode).toBe(200);

    const started = await api(server.app, 'POST', `/api/${teamId}/boards/${b.id}/duplicate`, { token: alice.token, body: { name: 'Big (copy)' } });
    expect(started.statusCode, started.body).toBe(202);
    const { job, board_id: copyId } = started.json().data;
    await drain();
    await waitFor(async () => (await server.ctx.db.selectFrom('board_jobs').select('state').where('id', '=', job.id).executeTakeFirst())?.state === 'done', 60_000, 'big duplicate done');
    const ended = await server.ctx.db.selectFrom('board_jobs').selectAll().where('id', '=', job.id).executeTakeFirstOrThrow();
    expect([ended.done, ended.total]).toEqual([250, 250]);
    const copy = await boardRecords(copyId);
    expect(copy.items).toHaveLength(250);
    expect(copy.values).toHaveLength(100);

    const cancelled = await api(server.app, 'POST', `/api/${teamId}/boards/${b.id}/duplicate`, { token: alice.token, body: { name: 'Never' } });
    expect(cancelled.statusCode).toBe(202);
    const cancel = await api(server.app, 'POST', `/api/me/board-jobs/${cancelled.json().data.job.id}/cancel`, { token: alice.token });
    expect(cancel.statusCode, cancel.body).toBe(200);
    await drain();
    await waitFor(async () => (await server.ctx.db.selectFrom('board_jobs').select('state').where('id', '=', cancelled.json().data.job.id).executeTakeFirst())?.state === 'cancelled', 30_000, 'duplicate cancelled');
    const left = await server.ctx.db.selectFrom('records').select('id').where('board_id', '=', cancelled.json().data.board_id).execute();
    expect(left).toEqual([]);
  }, 120_000);
});
