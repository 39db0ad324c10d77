import { sql } from 'kysely';
import { nanoid } from 'nanoid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardJob } from '../../schema/board-jobs';
import { primaryAttributeIdFor } from '../../schema/board-defaults';
import { api, createTestServer, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { buildWorld, put, type World } from './authz-fixtures';
import { addMember, createTeam, type SignedIn } from './sync-fixtures';

/**
 * The authorisation matrix over the other background actors (issue #26 part 11, N2; the automations
 * are in authz-background.test.ts): each board job kind (CSV import into a folder, duplicate board,
 * duplicate folder, move to another workspace), a form answer and template use, started by each of
 * six roles, on an open and on a hidden folder. What a role may write is asked of the request path
 * first (a plain item save as that role into the folder), and the background actor must do no more:
 * it refuses (4xx, or the job fails and leaves nothing) or writes only there, and never copies,
 * moves or names a record of a folder hidden from its actor. Rights lost between the start and the
 * run are judged at the run (server/sync/actor.ts).
 */

const ROLES = ['owner', 'admin', 'full-member', 'full-member-in-hidden', 'restricted-member', 'guest'] as const;
type Role = (typeof ROLES)[number];
/** Who may read the hidden folder (the world's: owner and admin; plus the member put in it here). */
const IN_HIDDEN = new Set<Role>(['owner', 'admin', 'full-member-in-hidden']);
/** Who may make boards in the workspace (CREATE_BOARD by the role defaults). */
const MAKES_BOARDS = new Set<Role>(['owner', 'admin', 'full-member', 'full-member-in-hidden']);
const SECRET = 'SECRET of the hidden folder';

describe('authorisation matrix: board jobs, form answers and template use as background actors', () => {
  let server: TestServer;
  let w: World;
  let who: Record<Role, SignedIn>;
  /** What the request path lets each role do: save an item into the open / the hidden folder. */
  const mayCreate: Record<'open' | 'hidden', Set<Role>> = { open: new Set(), hidden: new Set() };

  const call = (method: 'GET' | 'POST', path: string, role: Role, body?: unknown) => api(server.app, method, path, { token: who[role].token, body: body as Record<string, unknown> });
  async function untilEnded(id: string, role: Role): Promise<BoardJob> {
    const deadline = Date.now() + 120_000;
    for (;;) {
      await server.ctx.jobs.drain();
      const job = (await call('GET', `/api/me/board-jobs/${id}`, role)).json().data as BoardJob;
      if (job.finished_at || Date.now() > deadline) return job;
      // A refused step is tried again after a pause (the runner's backoff): move the clock past it.
      server.advance(5_000);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  /** A started job's id (a duplicate answers {job, board_id}, the others the job itself). */
  const jobIdOf = (body: { data: { id?: string; job?: { id: string } } }) => body.data.job?.id ?? body.data.id!;
  /** Live records named `text` (an item, folder or board), with where they sit. */
  const named = async (text: string) =>
    (await server.ctx.db.selectFrom('records').select(['collection', 'id', 'team_id', 'board_id', 'data']).where(sql<boolean>`data->>'name' = ${text}`).where(sql<boolean>`data->>'deleted_at' is null`).execute()).map((r) => ({
      collection: r.collection,
      id: r.id,
      team_id: r.team_id,
      board_id: r.board_id,
      folder_id: (r.data as { folder_id?: string }).folder_id,
      data: r.data as Record<string, unknown>,
    }));
  const folderData = async (id: string) => (await server.ctx.db.selectFrom('records').select(['data']).where('collection', '=', 'folder').where('id', '=', id).executeTakeFirstOrThrow()).data as Record<string, unknown> & { user_ids: number[]; hidden?: boolean };
  async function setHiddenMembers(folderId: string, userIds: number[]) {
    const row = await server.ctx.db.selectFrom('records').select(['data', 'row_version']).where('collection', '=', 'folder').where('id', '=', folderId).executeTakeFirstOrThrow();
    await put(w, 'folders', { ...(row.data as { id: string }), user_ids: userIds, row_version: row.row_version + 1 }, w.users.owner.token);
  }
  /** The item names a role reads on a board through the API (THE read rule). */
  const readsOn = async (boardId: string, role: Role) => {
    const res = await call('GET', `/api/${w.teamId}/items?board_id=${boardId}`, role);
    return res.statusCode === 200 ? (res.json().data as { name: string }[]).map((i) => i.name) : [];
  };
  /** Every item of a board, by name. */
  const itemNames = async (boardId: string) => (await server.ctx.db.selectFrom('records').select(['data']).where('collection', '=', 'item').where('board_id', '=', boardId).execute()).map((r) => String((r.data as { name: string }).name));

  beforeAll(async () => {
    server = await createTestServer({ config: { billing: false } as never });
    w = await buildWorld(server.app, server.ctx);
    const inside = await createUserWithToken(server.ctx);
    await addMember(server.ctx, w.teamId, inside.user.id, 'full-member');
    // The board first: a folder's members must be on its parent's list (W5.25).
    const boardRow = await folderData(w.boardId);
    const members = await api(server.app, 'PUT', '/api/users', { token: w.users.owner.token, body: { board_id: w.boardId, user_ids: [...(boardRow.user_ids ?? []), inside.user.id] } });
    expect(members.statusCode, members.body).toBe(200);
    const hidden = await folderData(w.hidden.folderId);
    await setHiddenMembers(w.hidden.folderId, [...hidden.user_ids, inside.user.id]);
    who = { owner: w.users.owner, admin: w.users.admin, 'full-member': w.users['full-member'], 'full-member-in-hidden': inside, 'restricted-member': w.users['restricted-member'], guest: w.users.guest };
    await put(w, 'items', { id: 'it' + nanoid(12), board_id: w.boardId, folder_id: w.hidden.folderId, name: SECRET, row_version: 1 }, who.owner.token);
    await put(w, 'items', { id: 'it' + nanoid(12), board_id: w.boardId, folder_id: w.folderId, name: 'Open row', row_version: 1 }, who.owner.token);
    // The request path's answer, asked once per role and folder.
    for (const role of ROLES) {
      for (const [place, folderId] of [['open', w.folderId], ['hidden', w.hidden.folderId]] as const) {
        const probe = { id: 'pr' + nanoid(12), board_id: w.boardId, folder_id: folderId, name: `probe ${role}`, row_version: 1 };
        const res = await api(server.app, 'PUT', `/api/${w.teamId}/items/${probe.id}`, { token: who[role].token, body: probe });
        if (res.statusCode === 200) mayCreate[place].add(role);
      }
    }
    await server.ctx.jobs.drain();
  }, 240_000);
  afterAll(() => server?.close());

  it('the request path’s rights the matrix judges by', () => {
    // The rules themselves (docs/permissions.md): every member but a guest adds items where they see the folder.
    expect([...mayCreate.open].sort()).toEqual(['admin', 'full-member', 'full-member-in-hidden', 'owner', 'restricted-member']);
    expect([...mayCreate.hidden].sort()).toEqual(['admin', 'full-member-in-hidden', 'owner']);
  });

  it('CSV import into the open and the hidden folder, as each role', async () => {
    const table: string[] = [];
    for (const role of ROLES) {
      for (const [place, folderId] of [['open', w.folderId], ['hidden', w.hidden.folderId]] as const) {
        const tag = `csv ${role} ${place} row`;
        const res = await call('POST', `/api/${w.teamId}/boards/${w.boardId}/imports/csv`, role, { folder_id: folderId, board_id: w.boardId, file_name: 'rows.csv', csv: `Name\n${tag} 1\n${tag} 2\n`, delimiter: ',', header: true, columns: [{ to: 'name' }] });
        const job = res.statusCode === 202 ? await untilEnded(jobIdOf(res.json()), role) : null;
        table.push(`${role} ${place}: ${res.statusCode} ${job?.state ?? ''} ${job?.error ?? ''}`);
        const rows = [...(await named(`${tag} 1`)), ...(await named(`${tag} 2`))];
        if (mayCreate[place].has(role)) {
          expect(job?.state, `${role} into ${place}: ${res.body}`).toBe('done');
          expect(rows.map((r) => [r.collection, r.folder_id]), `${role} into ${place}`).toEqual([['item', folderId], ['item', folderId]]);
        } else {
          expect(job?.state ?? 'refused', `${role} into ${place}: ${res.body}`).not.toBe('done');
          expect(rows, `${role} into ${place}: nothing written\n${table.join('\n')}`).toEqual([]);
        }
      }
    }
  }, 240_000);

  it('an import whose member left the hidden folder after the start fails at the run and writes nothing', async () => {
    const tag = 'csv of one who left';
    const res = await call('POST', `/api/${w.teamId}/boards/${w.boardId}/imports/csv`, 'full-member-in-hidden', { folder_id: w.hidden.folderId, board_id: w.boardId, file_name: 'late.csv', csv: `Name\n${tag} 1\n`, delimiter: ',', header: true, columns: [{ to: 'name' }] });
    expect(res.statusCode, res.body).toBe(202);
    const before = await folderData(w.hidden.folderId);
    await setHiddenMembers(w.hidden.folderId, before.user_ids.filter((id) => id !== who['full-member-in-hidden'].user.id));
    try {
      const job = await untilEnded(jobIdOf(res.json()), 'full-member-in-hidden');
      expect(job.state, job.error ?? '').toBe('failed');
      await server.ctx.jobs.drain();
      expect(await named(`${tag} 1`)).toEqual([]);
    } finally {
      await setHiddenMembers(w.hidden.folderId, before.user_ids);
    }
  }, 240_000);

  it('duplicate board: a copy holds only what its member may read, and the hidden folder stays hidden', async () => {
    for (const role of ROLES) {
      const name = `dup board of ${role}`;
      const res = await call('POST', `/api/${w.teamId}/boards/${w.boardId}/duplicate`, role, { name, with_items: true, with_comments: true });
      const job = res.statusCode === 202 ? await untilEnded(jobIdOf(res.json()), role) : null;
      const boards = (await named(name)).filter((r) => r.collection === 'folder');
      if (!MAKES_BOARDS.has(role)) {
        expect(res.statusCode, `${role}: ${res.body}`).toBe(403);
        expect(boards, role).toEqual([]);
        continue;
      }
      expect(job?.state, `${role}: ${job?.error ?? res.body}`).toBe('done');
      expect(boards.length, role).toBe(1);
      const copy = boards[0].id;
      const items = await itemNames(copy);
      expect(items, role).toContain('Open row');
      const folders = await server.ctx.db.selectFrom('records').select(['data']).where('collection', '=', 'folder').where('board_id', '=', copy).execute();
      const hiddenCopies = folders.map((f) => f.data as { name: string; hidden?: boolean; user_ids?: number[] }).filter((f) => f.name === 'Hidden');
      if (IN_HIDDEN.has(role)) {
        expect(items, role).toContain(SECRET);
        // The copy of the hidden folder is hidden from the same people.
        expect(hiddenCopies.map((f) => [f.hidden, [...(f.user_ids ?? [])].sort()]), role).toEqual([[true, [...(await folderData(w.hidden.folderId)).user_ids].sort()]]);
        // The copy is read by the others (so the check below can fail), but not its hidden folder.
        expect(await readsOn(copy, 'full-member'), `${role}'s copy read by full-member`).toContain('Open row');
        for (const outside of ROLES.filter((r) => !IN_HIDDEN.has(r))) expect(await readsOn(copy, outside), `${role}'s copy read by ${outside}`).not.toContain(SECRET);
      } else {
        expect(items, role).not.toContain(SECRET);
        expect(hiddenCopies, `${role}: no copy of a folder hidden from them`).toEqual([]);
      }
    }
  }, 240_000);

  it('duplicate folder: the open one where the role makes folders, the hidden one only by its members, kept hidden', async () => {
    const table: string[] = [];
    for (const role of ROLES) {
      for (const [place, folderId] of [['open', w.folderId], ['hidden', w.hidden.folderId]] as const) {
        const name = `dup folder ${place} of ${role}`;
        const res = await call('POST', `/api/${w.teamId}/boards/${w.boardId}/duplicate-folder`, role, { folder_id: folderId, name });
        const job = res.statusCode === 202 ? await untilEnded(jobIdOf(res.json()), role) : null;
        table.push(`${role} ${place}: ${res.statusCode} ${job?.state ?? ''} ${job?.error ?? ''}`);
        const made = (await named(name)).filter((r) => r.collection === 'folder');
        const where = `${role} ${place}\n${table.join('\n')}`;
        if (place === 'hidden' && !IN_HIDDEN.has(role)) {
          expect([403, 404], `${where}: ${res.body}`).toContain(res.statusCode);
          expect(made, where).toEqual([]);
          continue;
        }
        if (job?.state !== 'done') {
          // Refused: nothing of it is left.
          expect(res.statusCode === 202 ? job?.state : res.statusCode, where).not.toBe('done');
          expect(made, where).toEqual([]);
          continue;
        }
        expect(made.length, where).toBe(1);
        const items = (await server.ctx.db.selectFrom('records').select(['data']).where('collection', '=', 'item').where(sql<boolean>`data->>'folder_id' = ${made[0].id}`).execute()).map((r) => String((r.data as { name: string }).name));
        if (place === 'hidden') {
          expect(items, where).toContain(SECRET);
          expect(made[0].data.hidden, where).toBe(true);
          expect([...(made[0].data.user_ids as number[])].sort(), where).toEqual([...(await folderData(w.hidden.folderId)).user_ids].sort());
          for (const outside of ROLES.filter((r) => !IN_HIDDEN.has(r))) expect((await readsOn(w.boardId, outside)).filter((n) => n === SECRET), `${where}: read by ${outside}`).toEqual([]);
        } else expect(items, where).toContain('Open row');
      }
    }
    // Making folders is the owner's, the admin's and the full members' right (a plain folder save).
    expect(table.filter((l) => l.includes(' open: 202 done')).map((l) => l.split(' ')[0]).sort(), table.join('\n')).toEqual(['admin', 'full-member', 'full-member-in-hidden', 'owner']);
  }, 240_000);

  it('form answers: written as the form’s owner only where the owner may add items', async () => {
    const nameId = primaryAttributeIdFor(w.boardId);
    for (const role of ROLES) {
      for (const [place, folderId] of [['open', w.folderId], ['hidden', w.hidden.folderId]] as const) {
        const id = 'fm' + nanoid(12);
        await put(w, 'folder-views', { id, board_id: w.boardId, folder_id: w.boardId, name: `Form of ${role}`, kind: 'form', settings: { enabled: true, fields: [{ attribute_id: nameId, required: true }], target_folder_id: folderId }, row_version: 1 }, who.owner.token);
        // Owned by the role (as when its rights changed after the owner made it).
        await sql`update records set created_by = ${who[role].user.id}, data = jsonb_set(data, '{owner_id}', to_jsonb(${who[role].user.id}::int)) where collection = 'folder_view' and id = ${id}`.execute(server.ctx.db);
        const answer = `form answer ${role} ${place}`;
        const shown = await api(server.app, 'GET', `/api/forms/${id}`);
        const sent = await api(server.app, 'POST', `/api/forms/${id}`, { body: { answers: { [nameId]: answer } }, headers: { 'x-forwarded-for': `10.9.${ROLES.indexOf(role)}.${place === 'open' ? 1 : 2}` } });
        const made = await named(answer);
        const where = `${role} ${place}: ${sent.statusCode} ${sent.body}`;
        // The public page never names the folder it writes into.
        expect(shown.body, where).not.toContain('Hidden');
        if (mayCreate[place].has(role)) {
          expect(sent.statusCode, where).toBe(201);
          expect(made.map((r) => [r.collection, r.folder_id]), where).toEqual([['item', folderId]]);
          const row = await server.ctx.db.selectFrom('records').select('created_by').where('id', '=', made[0].id).executeTakeFirstOrThrow();
          expect(row.created_by, where).toBe(who[role].user.id);
        } else {
          expect(sent.statusCode, where).toBe(404);
          expect(made, where).toEqual([]);
        }
      }
    }
  }, 240_000);

  it('a form whose owner left the hidden folder takes no more answers there', async () => {
    const nameId = primaryAttributeIdFor(w.boardId);
    const id = 'fm' + nanoid(12);
    await put(w, 'folder-views', { id, board_id: w.boardId, folder_id: w.boardId, name: 'Form of one who left', kind: 'form', settings: { enabled: true, fields: [{ attribute_id: nameId, required: true }], target_folder_id: w.hidden.folderId }, row_version: 1 }, who.owner.token);
    const member = who['full-member-in-hidden'].user.id;
    await sql`update records set created_by = ${member}, data = jsonb_set(data, '{owner_id}', to_jsonb(${member}::int)) where collection = 'folder_view' and id = ${id}`.execute(server.ctx.db);
    const send = (answer: string) => api(server.app, 'POST', `/api/forms/${id}`, { body: { answers: { [nameId]: answer } }, headers: { 'x-forwarded-for': `10.8.0.${answer.length}` } });
    expect((await send('answer while inside')).statusCode).toBe(201);
    const before = await folderData(w.hidden.folderId);
    await setHiddenMembers(w.hidden.folderId, before.user_ids.filter((u) => u !== member));
    try {
      expect((await send('answer after leaving it')).statusCode).toBe(404);
      expect(await named('answer after leaving it')).toEqual([]);
    } finally {
      await setHiddenMembers(w.hidden.folderId, before.user_ids);
    }
  }, 240_000);

  it('template use: saved from what its maker may read, used only where they make boards', async () => {
    for (const role of ROLES) {
      const saved = await call('POST', `/api/${w.teamId}/boards/${w.boardId}/template`, role, { name: `tpl of ${role}`, with_items: true });
      const where = `${role}: ${saved.statusCode} ${saved.body.slice(0, 300)}`;
      if (saved.statusCode !== 200) {
        expect([403, 404], where).toContain(saved.statusCode);
        continue;
      }
      const content = JSON.stringify((await server.ctx.db.selectFrom('templates').select('content').where('id', '=', saved.json().data.id).executeTakeFirstOrThrow()).content);
      if (IN_HIDDEN.has(role)) expect(content, where).toContain(SECRET);
      else expect(content, `${where}: a template never holds what its maker may not read`).not.toContain(SECRET);
      const name = `from tpl of ${role}`;
      const used = await call('POST', `/api/${w.teamId}/templates/${saved.json().data.id}/use`, role, { name });
      if (!MAKES_BOARDS.has(role)) {
        expect(used.statusCode, where).toBe(403);
        expect(await named(name), where).toEqual([]);
        continue;
      }
      expect(used.statusCode, `${where} use: ${used.body}`).toBe(201);
      const boardId = used.json().data.board_id as string;
      const items = await itemNames(boardId);
      expect(items, where).toContain('Open row');
      const hiddenCopies = (await server.ctx.db.selectFrom('records').select(['data']).where('collection', '=', 'folder').where('board_id', '=', boardId).execute()).map((f) => f.data as { name: string; hidden?: boolean; user_ids?: number[] }).filter((f) => f.name === 'Hidden');
      if (IN_HIDDEN.has(role)) {
        // A template keeps only that a folder is hidden (decision 0359: its people are of the
        // workspace it was saved in): the new board's copy is hidden, its user its only member.
        expect(items, where).toContain(SECRET);
        expect(hiddenCopies.map((f) => [f.hidden, f.user_ids]), where).toEqual([[true, [who[role].user.id]]]);
        // Opened to the whole workspace, the board shows the others its open row and not the hidden one.
        await put(w, 'folders', { ...(await folderData(boardId)), user_ids: [], row_version: (await server.ctx.db.selectFrom('records').select('row_version').where('id', '=', boardId).executeTakeFirstOrThrow()).row_version + 1 } as never, who.owner.token);
        expect(await readsOn(boardId, 'full-member'), `${where}: the board is read by a full member`).toContain('Open row');
        for (const outside of ROLES.filter((r) => r !== role && r !== 'owner' && r !== 'admin')) expect(await readsOn(boardId, outside), `${where}: read by ${outside}`).not.toContain(SECRET);
      } else {
        expect(items, where).not.toContain(SECRET);
        expect(hiddenCopies, where).toEqual([]);
      }
    }
  }, 240_000);

  it('move to another workspace: only a board its mover may read wholly (or the owner), hidden kept hidden, and rights judged at the run', async () => {
    const table: string[] = [];
    const boards = new Map<Role, string>();
    const targets = new Map<Role, number>();
    for (const role of ROLES) {
      const boardId = 'mv' + nanoid(10);
      await put(w, 'folders', { id: boardId, board_id: boardId, parent_id: null, name: `Move board of ${role}`, row_version: 1 }, who.owner.token);
      const members = await api(server.app, 'PUT', '/api/users', { token: who.owner.token, body: { board_id: boardId, user_ids: ROLES.map((r) => who[r].user.id) } });
      expect(members.statusCode, members.body).toBe(200);
      const hf = 'mh' + nanoid(10);
      await put(w, 'folders', { id: hf, board_id: boardId, parent_id: boardId, name: 'Hidden', hidden: true, user_ids: [who.owner.user.id, who.admin.user.id, who['full-member-in-hidden'].user.id], row_version: 1 }, who.owner.token);
      await put(w, 'items', { id: 'it' + nanoid(12), board_id: boardId, folder_id: hf, name: `${SECRET} to move (${role})`, row_version: 1 }, who.owner.token);
      // The board is the role's own (DELETE_BOARD is "own" for members).
      await sql`update records set created_by = ${who[role].user.id} where collection = 'folder' and id = ${boardId}`.execute(server.ctx.db);
      boards.set(role, boardId);
      targets.set(role, await createTeam(server.ctx, who[role].user.id));
    }
    for (const role of ROLES) {
      const boardId = boards.get(role)!;
      const target = targets.get(role)!;
      const res = await call('POST', `/api/${w.teamId}/boards/${boardId}/move`, role, { team_id: target });
      const job = res.statusCode === 202 ? await untilEnded(jobIdOf(res.json()), role) : null;
      table.push(`${role}: ${res.statusCode} ${job?.state ?? ''} ${job?.error ?? ''}`);
      const secret = await named(`${SECRET} to move (${role})`);
      const where = `${role}\n${table.join('\n')}`;
      if (IN_HIDDEN.has(role) && MAKES_BOARDS.has(role)) {
        expect(job?.state, where).toBe('done');
        expect(secret.map((r) => r.team_id), where).toEqual([target]);
        const hidden = (await named('Hidden')).filter((r) => r.board_id === boardId);
        expect(hidden.map((r) => [r.team_id, r.data.hidden]), where).toEqual([[target, true]]);
      } else {
        expect([403, 404], `${where}: ${res.body}`).toContain(res.statusCode);
        expect(secret.map((r) => r.team_id), where).toEqual([w.teamId]);
      }
    }
  }, 240_000);

  it('a move whose member left the hidden folder after the start fails at the run and moves nothing', async () => {
    const role: Role = 'full-member-in-hidden';
    const boardId = 'mv' + nanoid(10);
    await put(w, 'folders', { id: boardId, board_id: boardId, parent_id: null, name: 'Move board of one who left', row_version: 1 }, who.owner.token);
    expect((await api(server.app, 'PUT', '/api/users', { token: who.owner.token, body: { board_id: boardId, user_ids: [who.owner.user.id, who[role].user.id] } })).statusCode).toBe(200);
    const hf = 'mh' + nanoid(10);
    await put(w, 'folders', { id: hf, board_id: boardId, parent_id: boardId, name: 'Hidden', hidden: true, user_ids: [who.owner.user.id, who[role].user.id], row_version: 1 }, who.owner.token);
    await put(w, 'items', { id: 'it' + nanoid(12), board_id: boardId, folder_id: hf, name: `${SECRET} left behind`, row_version: 1 }, who.owner.token);
    await sql`update records set created_by = ${who[role].user.id} where collection = 'folder' and id = ${boardId}`.execute(server.ctx.db);
    const target = await createTeam(server.ctx, who[role].user.id);
    const res = await call('POST', `/api/${w.teamId}/boards/${boardId}/move`, role, { team_id: target });
    expect(res.statusCode, res.body).toBe(202);
    await put(w, 'folders', { ...(await folderData(hf)), user_ids: [who.owner.user.id], row_version: (await server.ctx.db.selectFrom('records').select('row_version').where('id', '=', hf).executeTakeFirstOrThrow()).row_version + 1 } as never, who.owner.token);
    const job = await untilEnded(jobIdOf(res.json()), role);
    expect(job.state, job.error ?? '').toBe('failed');
    await server.ctx.jobs.drain();
    expect((await named(`${SECRET} left behind`)).map((r) => r.team_id)).toEqual([w.teamId]);
  }, 240_000);
});
