import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestServer, type TestServer } from '../helpers/test-server';
import { addMember, attribute, board, createTeam, folder, item, newId, teamWithRoles, value, type TeamFixture } from './sync-fixtures';
import { createUserWithToken } from '../helpers/users';
import { boardJobTuning } from '../../server/board-jobs/runner';
import { moveTuning } from '../../server/board-jobs/move';
import type { BoardJob } from '../../schema/board-jobs';
import { primaryAttributeIdFor } from '../../schema/board-defaults';

/**
 * Duplicate (board or folder, with or without items, values, views, automations, comments; the
 * batched writer) and move to another workspace, as board jobs against the real server
 * (decisions 0226, 0227). Runs on PGlite and PostgreSQL.
 */

describe('duplicate and move as board jobs', () => {
  let server: TestServer;
  let t: TeamFixture;
  const b = board({ name: 'Roadmap' });
  const sub = folder(b.id, { name: 'Q1' });
  const subsub = folder(b.id, { name: 'Week 1', parent_id: sub.id });
  const status = attribute(b.id, { name: 'Status', kind: 'label', settings: { options: [{ id: 'todo', name: 'Todo', color: '#E2E4F0' }, { id: 'done', name: 'Done', color: '#D8F5E1' }], multiple: false } });
  const owners = attribute(b.id, { name: 'Owners', kind: 'members' });
  const local = attribute(b.id, { name: 'Q1 notes', kind: 'text', folder_id: sub.id });
  const items = Array.from({ length: 30 }, (_, i) => item(b.id, { name: `Task ${i + 1}`, folder_id: i < 10 ? b.id : i < 25 ? sub.id : subsub.id, position: i + 1 }));
  const viewId = newId();
  const automationId = newId();

  const put = async (route: string, body: Record<string, unknown>, token = t.owner.token) => {
    const res = await api(server.app, 'PUT', `/api/${t.teamId}/${route}/${encodeURIComponent(String(body.id))}`, { token, body });
    expect(res.statusCode, res.body).toBe(200);
  };
  const jobOf = async (id: string, token = t.owner.token): Promise<BoardJob> => (await api(server.app, 'GET', `/api/me/board-jobs/${id}`, { token })).json().data;
  async function untilEnded(id: string, token = t.owner.token): Promise<BoardJob> {
    const deadline = Date.now() + 120_000;
    for (;;) {
      await server.ctx.jobs.drain();
      const job = await jobOf(id, token);
      if (job.finished_at || Date.now() > deadline) return job;
      server.advance(5_000);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  const live = (teamId: number, boardId: string, collection: string) =>
    server.ctx.db.selectFrom('records').select(['id', 'data', 'created_by', 'team_id']).where('team_id', '=', teamId).where('board_id', '=', boardId).where('collection', '=', collection).where('deleted_at', 'is', null).execute();

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
    await put('folders', b);
    await put('folders', sub);
    await put('folders', subsub);
    for (const a of [status, owners, local]) await put('attributes', a);
    for (const [i, it] of items.entries()) {
      await put('items', it);
      await put('values', value(b.id, it.id, status.id, i % 2 ? 'done' : 'todo'));
      if (i < 5) await put('values', value(b.id, it.id, owners.id, [t.owner.user.id, t.full.user.id]));
      if (it.folder_id === sub.id) await put('values', value(b.id, it.id, local.id, `note ${i}`));
    }
    await put('folder-views', { id: viewId, board_id: b.id, folder_id: b.id, name: 'By status', kind: 'table', row_version: 1, settings: { sort: [{ attribute_id: status.id, direction: 'asc' }], hidden_columns: [owners.id] } });
    await put('automations', { id: automationId, board_id: b.id, name: 'Done → Q1', enabled: true, trigger: { type: 'value_changed', attribute_id: status.id, to: 'done' }, conditions: [], match: 'all', actions: [{ type: 'move_to_folder', folder_id: sub.id }], position: 1, row_version: 1 });
    await put('comments', { id: newId(), board_id: b.id, item_id: items[0]!.id, parent_id: null, text: { html: '<p>First thoughts</p>' } }, t.full.token);
    await server.ctx.jobs.drain();
  }, 180_000);
  afterAll(async () => {
    boardJobTuning.sliceMs = 2000;
    await server?.close();
  });

  it('duplicates a board with items, values, views, automations and comments, ids remapped, through batches', async () => {
    const res = await api(server.app, 'POST', `/api/${t.teamId}/boards/${b.id}/duplicate`, { token: t.owner.token, body: { name: 'Roadmap (copy)', with_comments: true } });
    expect(res.statusCode, res.body).toBe(202);
    const { job: started, board_id: copyId } = res.json().data as { job: BoardJob; board_id: string };
    expect(started.kind).toBe('board.duplicate');
    const job = await untilEnded(started.id);
    expect(job.state, job.error ?? '').toBe('done');
    expect(job).toMatchObject({ done: 30, total: 30 });

    const copiedItems = await live(t.teamId, copyId, 'item');
    expect(copiedItems.map((r) => (r.data as { name: string }).name).sort()).toEqual(items.map((i) => i.name).sort());
    // New ids start with the job's id (cleanup finds them); folders and attributes are new too.
    expect(copiedItems.every((r) => r.id.startsWith(job.id))).toBe(true);
    const folders = await live(t.teamId, copyId, 'folder');
    expect(folders.map((f) => (f.data as { name: string }).name).sort()).toEqual(['Q1', 'Roadmap (copy)', 'Week 1']);
    const attributes = await live(t.teamId, copyId, 'attribute');
    const newStatus = attributes.find((a) => (a.data as { name: string }).name === 'Status')!;
    const newOwners = attributes.find((a) => (a.data as { name: string }).name === 'Owners')!;
    expect(newStatus.id).not.toBe(status.id);
    const values = await live(t.teamId, copyId, 'value');
    expect(values.filter((v) => (v.data as { attribute_id: string }).attribute_id === newStatus.id)).toHaveLength(30);
    // Members values stay in the same workspace.
    expect(values.filter((v) => (v.data as { attribute_id: string }).attribute_id === newOwners.id)).toHaveLength(5);
    const views = await live(t.teamId, copyId, 'folder_view');
    expect(views).toHaveLength(1);
    expect(JSON.stringify(views[0]!.data)).toContain(newStatus.id);
    expect(JSON.stringify(views[0]!.data)).not.toContain(status.id);
    // The automation follows the new attribute and folder, and stays on.
    const automations = await live(t.teamId, copyId, 'automation');
    expect(automations).toHaveLength(1);
    const rule = automations[0]!.data as { enabled: boolean; trigger: { attribute_id: string }; actions: { folder_id: string }[] };
    expect(rule.enabled).toBe(true);
    expect(rule.trigger.attribute_id).toBe(newStatus.id);
    const newQ1 = folders.find((f) => (f.data as { name: string }).name === 'Q1')!;
    expect(rule.actions[0]!.folder_id).toBe(newQ1.id);
    // The comment keeps its author and text, on the copied item.
    const comments = await live(t.teamId, copyId, 'comment');
    expect(comments).toHaveLength(1);
    expect(comments[0]!.created_by).toBe(t.full.user.id);
    expect(JSON.stringify(comments[0]!.data)).toContain('First thoughts');
    // The copy is synced to replicas: its items are in the change log.
    const logged = await server.ctx.db.selectFrom('change_log').select('record_id').where('team_id', '=', t.teamId).where('board_id', '=', copyId).where('collection', '=', 'item').execute();
    expect(logged).toHaveLength(30);
  }, 240_000);

  it('duplicates without items, automations or comments when asked; a cancelled one leaves nothing', async () => {
    const res = await api(server.app, 'POST', `/api/${t.teamId}/boards/${b.id}/duplicate`, { token: t.owner.token, body: { name: 'Bare', with_items: false, with_automations: false, with_views: false } });
    const { job: started, board_id: bareId } = res.json().data as { job: BoardJob; board_id: string };
    expect((await untilEnded(started.id)).state).toBe('done');
    expect(await live(t.teamId, bareId, 'item')).toHaveLength(0);
    expect(await live(t.teamId, bareId, 'automation')).toHaveLength(0);
    expect(await live(t.teamId, bareId, 'folder_view')).toHaveLength(0);
    expect((await live(t.teamId, bareId, 'attribute')).length).toBeGreaterThanOrEqual(3);

    boardJobTuning.sliceMs = 0;
    try {
      const again = await api(server.app, 'POST', `/api/${t.teamId}/boards/${b.id}/duplicate`, { token: t.owner.token, body: { name: 'Never', with_comments: true } });
      const { job: never, board_id: neverId } = again.json().data as { job: BoardJob; board_id: string };
      // One step (the structure), then cancel.
      await (server.ctx.jobs as unknown as { runOnce: () => Promise<void> }).runOnce();
      expect((await api(server.app, 'POST', `/api/me/board-jobs/${never.id}/cancel`, { token: t.owner.token })).statusCode).toBe(200);
      expect((await untilEnded(never.id)).state).toBe('cancelled');
      const left = await server.ctx.db.selectFrom('records').select('id').where('team_id', '=', t.teamId).where((eb) => eb.or([eb('board_id', '=', neverId), eb('id', 'like', `${never.id}%`)])).execute();
      expect(left).toEqual([]);
    } finally {
      boardJobTuning.sliceMs = 2000;
    }
  }, 240_000);

  it('duplicates a folder beside itself: its subfolders, items and values, the board’s attributes shared', async () => {
    // The board's automation moved the done items of the top folder into Q1: count what is there now.
    const inTree = (await live(t.teamId, b.id, 'item')).filter((i) => [sub.id, subsub.id].includes(String((i.data as { folder_id: string }).folder_id))).length;
    expect(inTree).toBeGreaterThanOrEqual(20);
    const res = await api(server.app, 'POST', `/api/${t.teamId}/boards/${b.id}/duplicate-folder`, { token: t.owner.token, body: { folder_id: sub.id, name: 'Q1 (copy)' } });
    expect(res.statusCode, res.body).toBe(202);
    const { job: started, folder_id: copyId } = res.json().data as { job: BoardJob; folder_id: string };
    const job = await untilEnded(started.id);
    expect(job.state, job.error ?? '').toBe('done');
    expect(job.kind).toBe('folder.duplicate');
    expect(job).toMatchObject({ done: inTree, total: inTree });
    const folders = await live(t.teamId, b.id, 'folder');
    const copy = folders.find((f) => f.id === copyId)!;
    expect(copy.data).toMatchObject({ name: 'Q1 (copy)', parent_id: b.id });
    const week = folders.find((f) => (f.data as { parent_id: string }).parent_id === copyId)!;
    expect((week.data as { name: string }).name).toBe('Week 1');
    const copied = (await live(t.teamId, b.id, 'item')).filter((i) => [copyId, week.id].includes(String((i.data as { folder_id: string }).folder_id)));
    expect(copied).toHaveLength(inTree);
    const values = (await live(t.teamId, b.id, 'value')).filter((v) => copied.some((i) => i.id === (v.data as { item_id: string }).item_id));
    // The board's Status attribute is shared (same id); the folder's own attribute is copied with a new id.
    expect(values.filter((v) => (v.data as { attribute_id: string }).attribute_id === status.id)).toHaveLength(inTree);
    const attributes = await live(t.teamId, b.id, 'attribute');
    const localCopy = attributes.find((a) => (a.data as { folder_id: string }).folder_id === copyId)!;
    // Its name and kind may be on the board once: the copy is “(copy)”.
    expect((localCopy.data as { name: string }).name).toBe('Q1 notes (copy)');
    expect(values.filter((v) => (v.data as { attribute_id: string }).attribute_id === localCopy.id)).toHaveLength(15);
    expect(values.some((v) => (v.data as { attribute_id: string }).attribute_id === local.id)).toBe(false);
    // Who may not make folders may not duplicate one.
    expect((await api(server.app, 'POST', `/api/${t.teamId}/boards/${b.id}/duplicate-folder`, { token: t.stranger.token, body: { folder_id: sub.id, name: 'x' } })).statusCode).toBe(403);
    expect((await api(server.app, 'POST', `/api/${t.teamId}/boards/${b.id}/duplicate-folder`, { token: t.owner.token, body: { folder_id: 'nope', name: 'x' } })).statusCode).toBe(404);
  }, 240_000);

  it('moves a board to another workspace: every record, people who are not members there taken off, the item limit refused', async () => {
    const mover = board({ name: 'Moving' });
    const people = attribute(mover.id, { name: 'People', kind: 'members' });
    await put('folders', { ...mover, user_ids: [t.owner.user.id, t.full.user.id] });
    await put('attributes', people);
    const moving = Array.from({ length: 12 }, (_, i) => item(mover.id, { name: `M${i}` }));
    for (const it of moving) {
      await put('items', it);
      await put('values', value(mover.id, it.id, people.id, [t.owner.user.id, t.full.user.id]));
    }
    const other = await createTeam(server.ctx, t.owner.user.id);
    const outsider = await createUserWithToken(server.ctx);
    await addMember(server.ctx, other, outsider.user.id, 'full-member');

    // Not a member of the target: refused. Same workspace: refused.
    expect((await api(server.app, 'POST', `/api/${t.teamId}/boards/${mover.id}/move`, { token: t.full.token, body: { team_id: other } })).statusCode).toBe(403);
    expect((await api(server.app, 'POST', `/api/${t.teamId}/boards/${mover.id}/move`, { token: t.owner.token, body: { team_id: t.teamId } })).statusCode).toBe(422);
    // The target's item limit, with the spec's message.
    moveTuning.maxItems = 5;
    try {
      const full = await api(server.app, 'POST', `/api/${t.teamId}/boards/${mover.id}/move`, { token: t.owner.token, body: { team_id: other } });
      expect(full.statusCode).toBe(422);
      expect(full.body).toContain('may not hold a board of more than 5 items');
    } finally {
      moveTuning.maxItems = 100_000;
    }

    moveTuning.recordsPerBatch = 7;
    try {
      const res = await api(server.app, 'POST', `/api/${t.teamId}/boards/${mover.id}/move`, { token: t.owner.token, body: { team_id: other } });
      expect(res.statusCode, res.body).toBe(202);
      const job = await untilEnded(res.json().data.id);
      expect(job.state, job.error ?? '').toBe('done');
      expect(job).toMatchObject({ kind: 'board.move', done: 12, total: 12 });
    } finally {
      moveTuning.recordsPerBatch = 5000;
    }
    expect(await live(t.teamId, mover.id, 'item')).toHaveLength(0);
    const arrived = await live(other, mover.id, 'item');
    expect(arrived).toHaveLength(12);
    // A record's own copy of its workspace follows.
    for (const r of arrived) if ('team_id' in (r.data as object)) expect((r.data as { team_id: number }).team_id).toBe(other);
    expect(await live(other, mover.id, 'attribute')).toHaveLength(2);
    // t.full is not a member of the target: off the board's member list and its members values.
    const root = (await live(other, mover.id, 'folder'))[0]!;
    expect((root.data as { user_ids: number[] }).user_ids).toEqual([t.owner.user.id]);
    const values = await live(other, mover.id, 'value');
    expect(values.every((v) => JSON.stringify((v.data as { value: number[] }).value) === JSON.stringify([t.owner.user.id]))).toBe(true);
    // Replicas of both workspaces follow: deleted in the old log, saved in the new one.
    const oldLog = await server.ctx.db.selectFrom('change_log').select(['op']).where('team_id', '=', t.teamId).where('board_id', '=', mover.id).where('collection', '=', 'item').where('op', '=', 'deleted').execute();
    expect(oldLog).toHaveLength(12);
    const newLog = await server.ctx.db.selectFrom('change_log').select(['op']).where('team_id', '=', other).where('board_id', '=', mover.id).where('collection', '=', 'item').execute();
    expect(newLog).toHaveLength(12);
    // The board reads in its new workspace.
    const read = await api(server.app, 'GET', `/api/${other}/boards/${mover.id}/items`, { token: t.owner.token });
    expect([200, 404]).toContain(read.statusCode);
    expect(primaryAttributeIdFor(mover.id)).toBeTruthy();
  }, 240_000);

  it('saves automations into a template; a board made from it has them, switched off where they name people', async () => {
    await put('automations', { id: newId(), board_id: b.id, name: 'Tell the lead', enabled: true, trigger: { type: 'item_created' }, conditions: [], match: 'all', actions: [{ type: 'notify', user_ids: [t.full.user.id], on: 'item', message: 'New: {{item.name}}' }], position: 2, row_version: 1 });
    const saved = await api(server.app, 'POST', `/api/${t.teamId}/boards/${b.id}/template`, { token: t.owner.token, body: { name: 'With rules', with_items: false } });
    expect(saved.statusCode, saved.body).toBe(200);
    const used = await api(server.app, 'POST', `/api/${t.teamId}/templates/${saved.json().data.id}/use`, { token: t.owner.token, body: { name: 'From template' } });
    expect(used.statusCode, used.body).toBe(201);
    const made = used.json().data.board_id as string;
    const automations = await live(t.teamId, made, 'automation');
    expect(automations).toHaveLength(2);
    const byName = new Map(automations.map((a) => [(a.data as { name: string }).name, a.data as { enabled: boolean; trigger: { attribute_id?: string } }]));
    expect(byName.get('Tell the lead')!.enabled).toBe(false);
    const move = byName.get('Done → Q1')!;
    expect(move.enabled).toBe(true);
    const attributes = await live(t.teamId, made, 'attribute');
    expect(attributes.map((a) => a.id)).toContain(move.trigger.attribute_id);

    // A built-in template's automations (they name nobody) are on in the new board, about its own attributes.
    const fromBuiltin = await api(server.app, 'POST', `/api/${t.teamId}/templates/bug-tracker/use`, { token: t.owner.token, body: { name: 'Bugs' } });
    expect(fromBuiltin.statusCode, fromBuiltin.body).toBe(201);
    const bugs = fromBuiltin.json().data.board_id as string;
    const rules = await live(t.teamId, bugs, 'automation');
    expect(rules).toHaveLength(2);
    const statusId = (await live(t.teamId, bugs, 'attribute')).find((a) => (a.data as { name: string }).name === 'Status')!.id;
    for (const rule of rules) expect((rule.data as { enabled: boolean }).enabled).toBe(true);
    expect(rules.some((r) => JSON.stringify(r.data).includes(statusId))).toBe(true);
  }, 120_000);
});
