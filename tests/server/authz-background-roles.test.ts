import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { nanoid } from 'nanoid';
import * as Y from 'yjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardJob } from '../../schema/board-jobs';
import { primaryAttributeIdFor } from '../../schema/board-defaults';
import { DOC_FRAGMENT } from '../../schema/doc-records';
import { COMPACT_WINDOW_MS } from '../../server/docs/compact';
import { createPersonalToken } from '../../server/developer/api-tokens';
import { moveTuning } from '../../server/board-jobs/move';
import { boardJobTuning } from '../../server/board-jobs/runner';
import type { PassLoop } from '../../server/jobs/pass-loop';
import { api, createTestServer, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { buildWorld, put, type World } from './authz-fixtures';
import { addMember, createTeam, type SignedIn } from './sync-fixtures';

/**
 * The authorisation matrix over background actors, continued (issue #26 part 11; the first parts
 * are authz-background.test.ts and authz-background-jobs.test.ts):
 * - the Trello and Gitlab imports read through their APIs, as every role, into an open and a
 *   hidden folder (a local stand-in answers for both services);
 * - every background path as the roles those files leave out: an outsider (owner of another
 *   workspace), an anonymous caller, and API tokens of the workspace owner with each ability.
 * Each is judged as the person it acts for: a token does no more in a job than in a request
 * (a folder save that sets who may see it needs `admin`, N8), and what a role may do is asked of
 * the request path first (a plain save as that role), so the checks can fail.
 */

const PEOPLE = ['owner', 'admin', 'full-member', 'full-member-in-hidden', 'restricted-member', 'guest', 'outsider'] as const;
const TOKENS = ['token-read', 'token-write', 'token-admin', 'token-billing'] as const;
const ROLES = [...PEOPLE, 'anonymous', ...TOKENS] as const;
type Person = (typeof PEOPLE)[number];
type Role = (typeof ROLES)[number];
const ABILITIES: Record<(typeof TOKENS)[number], string[]> = { 'token-read': ['read'], 'token-write': ['read', 'write'], 'token-admin': ['read', 'write', 'admin'], 'token-billing': ['billing'] };
/** Who may read the hidden folder: the owner (and the owner's tokens), the admin, the member put in it. */
const IN_HIDDEN = new Set<Role>(['owner', 'admin', 'full-member-in-hidden', 'token-read', 'token-write', 'token-admin', 'token-billing']);
const SECRET = 'SECRET of the hidden folder';
const TRELLO_BOARD = '65a1f0c2e4b0a1b2c3d4e700';
const TRELLO_LIST = '65a1f0c2e4b0a1b2c3d4e701';

describe('authorisation matrix: API imports, and every background path as outsider, anonymous and API tokens', () => {
  let server: TestServer;
  let w: World;
  let who: Record<Person, SignedIn>;
  const tokens = {} as Record<(typeof TOKENS)[number], string>;
  let stand: Server;
  let standUrl: string;
  /** Paths the stand-in services were asked for. */
  const heard: string[] = [];
  /** What the request path lets each role do in the open / the hidden folder. */
  const mayCreate: Record<'open' | 'hidden', Set<Role>> = { open: new Set(), hidden: new Set() };
  const mayAttribute: Record<'open' | 'hidden', Set<Role>> = { open: new Set(), hidden: new Set() };

  /** The bearer a role calls with: a session, an API token of the owner, or none. */
  const bearer = (role: Role): string | undefined => (role === 'anonymous' ? undefined : role.startsWith('token-') ? tokens[role as (typeof TOKENS)[number]] : who[role as Person].token);
  /** The person a role acts as. */
  const personOf = (role: Role): Person | null => (role === 'anonymous' ? null : role.startsWith('token-') ? 'owner' : (role as Person));
  const call = (method: 'GET' | 'POST' | 'PUT', path: string, role: Role, body?: unknown, headers?: Record<string, string>) => api(server.app, method, path, { token: bearer(role), body: body as Record<string, unknown>, headers });
  async function untilEnded(id: string, role: Role): Promise<BoardJob> {
    const person = personOf(role)!;
    const deadline = Date.now() + 120_000;
    for (;;) {
      await server.ctx.jobs.drain();
      const job = (await api(server.app, 'GET', `/api/me/board-jobs/${id}`, { token: who[person].token })).json().data as BoardJob;
      if (job.finished_at || Date.now() > deadline) return job;
      server.advance(5_000);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const jobIdOf = (body: { data: { id?: string; job?: { id: string } } }) => body.data.job?.id ?? body.data.id!;
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
  const folders = () => [['open', w.folderId], ['hidden', w.hidden.folderId]] as const;
  /** A refusal of the request path: unauthenticated, forbidden, not found, or "select one folder" for a folder the caller cannot see. */
  const REFUSED = [401, 403, 404, 422];

  beforeAll(async () => {
    stand = createServer((req, res) => {
      const url = new URL(req.url!, 'http://stand-in');
      heard.push(url.pathname);
      const json = (r: ServerResponse, body: unknown, headers: Record<string, string> = {}) => {
        r.writeHead(200, { 'content-type': 'application/json', ...headers });
        r.end(JSON.stringify(body));
      };
      // Each answer names its card or issue after the caller's token, so every start's rows are its own.
      if (url.pathname === `/1/boards/${TRELLO_BOARD}`) {
        const tag = url.searchParams.get('token');
        return json(res, { id: TRELLO_BOARD, name: 'Stand-in board', lists: [{ id: TRELLO_LIST, name: 'To do', pos: 1 }], cards: [{ id: '65a1f0c2e4b0a1b2c3d4e801', name: `trello ${tag}`, idList: TRELLO_LIST, pos: 1 }], labels: [], checklists: [], members: [], actions: [] });
      }
      if (url.pathname.startsWith('/api/v4/projects/')) return json(res, [{ id: 1, iid: 1, title: `gitlab ${req.headers['private-token']}`, state: 'opened' }], { 'x-next-page': '' });
      res.writeHead(404);
      res.end();
    });
    await new Promise<void>((r) => stand.listen(0, '127.0.0.1', () => r()));
    standUrl = `http://127.0.0.1:${(stand.address() as AddressInfo).port}`;
    process.env.TRELLO_API_KEY = 'stand-in-key';
    process.env.TRELLO_API_URL = standUrl;
    // The stand-in is on loopback: each import's own allow-list opens it (as for a self-hosted Gitlab).
    server = await createTestServer({ config: { billing: false, outbound: { features: { gitlabImport: { allowedHosts: ['127.0.0.1'] }, trelloImport: { allowedHosts: ['127.0.0.1'] } } } } as never });
    w = await buildWorld(server.app, server.ctx);
    const inside = await createUserWithToken(server.ctx);
    await addMember(server.ctx, w.teamId, inside.user.id, 'full-member');
    // A board member first, then a member of its hidden folder (a folder's people are the board's).
    const members = await api(server.app, 'PUT', '/api/users', { token: w.users.owner.token, body: { board_id: w.boardId, user_ids: [...((await folderData(w.boardId)).user_ids ?? []), inside.user.id] } });
    expect(members.statusCode, members.body).toBe(200);
    await setHiddenMembers(w.hidden.folderId, [...(await folderData(w.hidden.folderId)).user_ids, inside.user.id]);
    who = { owner: w.users.owner, admin: w.users.admin, 'full-member': w.users['full-member'], 'full-member-in-hidden': inside, 'restricted-member': w.users['restricted-member'], guest: w.users.guest, outsider: w.users.outsider };
    for (const role of TOKENS) tokens[role] = (await createPersonalToken(server.ctx.db, who.owner.user.id, { name: role, abilities: ABILITIES[role] as never, expiresAt: null }, server.ctx.now())).token;
    await put(w, 'items', { id: 'it' + nanoid(12), board_id: w.boardId, folder_id: w.hidden.folderId, name: SECRET, row_version: 1 }, who.owner.token);
    await put(w, 'items', { id: 'it' + nanoid(12), board_id: w.boardId, folder_id: w.folderId, name: 'Open row', row_version: 1 }, who.owner.token);
    // The request path's answers, asked once per role and folder: an item, and an attribute of the folder.
    for (const role of ROLES) {
      for (const [place, folderId] of folders()) {
        const item = { id: 'pr' + nanoid(12), board_id: w.boardId, folder_id: folderId, name: `probe ${role}`, row_version: 1 };
        if ((await call('PUT', `/api/${w.teamId}/items/${item.id}`, role, item)).statusCode === 200) mayCreate[place].add(role);
        const attribute = { id: 'pa' + nanoid(12), board_id: w.boardId, folder_id: folderId, name: `probe ${role} ${place}`, kind: 'text', row_version: 1 };
        if ((await call('PUT', `/api/${w.teamId}/attributes/${attribute.id}`, role, attribute)).statusCode === 200) mayAttribute[place].add(role);
      }
    }
    await server.ctx.jobs.drain();
  }, 240_000);
  afterAll(async () => {
    delete process.env.TRELLO_API_KEY;
    delete process.env.TRELLO_API_URL;
    await new Promise((r) => stand?.close(r));
    await server?.close();
  });

  it('the request path’s rights the matrix judges by', () => {
    // Outsiders, anonymous callers and read or billing tokens save nothing; a write token saves what its owner may.
    expect([...mayCreate.open].sort()).toEqual(['admin', 'full-member', 'full-member-in-hidden', 'owner', 'restricted-member', 'token-admin', 'token-write']);
    expect([...mayCreate.hidden].sort()).toEqual(['admin', 'full-member-in-hidden', 'owner', 'token-admin', 'token-write']);
    for (const place of ['open', 'hidden'] as const) for (const role of ['guest', 'outsider', 'anonymous', 'token-read', 'token-billing'] as const) expect(mayAttribute[place].has(role), `${role} ${place}`).toBe(false);
  });

  it('Trello and Gitlab imports through their APIs, into the open and the hidden folder, as every role', async () => {
    const table: string[] = [];
    for (const role of ROLES) {
      // The API starts are throttled per user (10 an hour; import-throttle.test.ts): the tokens share the owner's.
      await sql`delete from throttle_hits where key like 'apiImportStart:%'`.execute(server.ctx.db);
      for (const [place, folderId] of folders()) {
        for (const source of ['trello', 'gitlab'] as const) {
          const tag = `${source}-${role}-${place}`;
          const body = source === 'trello' ? { folder_id: folderId, trello_board_id: TRELLO_BOARD, token: tag, list_ids: [TRELLO_LIST], lists_as: 'labels' } : { folder_id: folderId, url: standUrl, project: 'grp/proj', token: tag };
          const before = heard.length;
          const res = await call('POST', `/api/${w.teamId}/boards/${w.boardId}/imports/${source}`, role, body);
          const job = res.statusCode === 202 ? await untilEnded(jobIdOf(res.json()), role) : null;
          const rows = await named(`${source} ${tag}`);
          const where = `${source} ${role} into ${place}: ${res.statusCode} ${job?.state ?? ''} ${job?.error ?? res.body.slice(0, 200)}`;
          table.push(where);
          if (mayCreate[place].has(role) && mayAttribute[place].has(role)) {
            expect(job?.state, where).toBe('done');
            expect(rows.map((r) => [r.collection, r.folder_id]), where).toEqual([['item', folderId]]);
          } else {
            // Refused before anything is fetched: the stand-in hears nothing and nothing is written.
            expect(REFUSED, where).toContain(res.statusCode);
            expect(heard.length, `${where}: fetched before the permission checks`).toBe(before);
            expect(rows, where).toEqual([]);
          }
        }
      }
    }
    // Made by the roles the request path lets add items and attributes there, and no one else.
    const done = table.filter((l) => l.includes(': 202 done')).map((l) => l.split(':')[0]);
    for (const role of ['owner', 'token-write', 'token-admin']) for (const source of ['trello', 'gitlab']) expect(done, table.join('\n')).toContain(`${source} ${role} into hidden`);
    for (const role of ['outsider', 'anonymous', 'token-read', 'token-billing', 'guest']) expect(done.filter((l) => l.includes(` ${role} into`)), table.join('\n')).toEqual([]);
  }, 480_000);

  it('an API import whose member left the hidden folder after the start fails at the run and writes nothing', async () => {
    await sql`delete from throttle_hits where key like 'apiImportStart:%'`.execute(server.ctx.db);
    const role = 'full-member-in-hidden';
    const res = await call('POST', `/api/${w.teamId}/boards/${w.boardId}/imports/gitlab`, role, { folder_id: w.hidden.folderId, url: standUrl, project: 'grp/proj', token: 'one-who-left' });
    expect(res.statusCode, res.body).toBe(202);
    const before = await folderData(w.hidden.folderId);
    await setHiddenMembers(w.hidden.folderId, before.user_ids.filter((id) => id !== who[role].user.id));
    try {
      const job = await untilEnded(jobIdOf(res.json()), role);
      expect(job.state, job.error ?? '').toBe('failed');
      await server.ctx.jobs.drain();
      expect(await named('gitlab one-who-left')).toEqual([]);
    } finally {
      await setHiddenMembers(w.hidden.folderId, before.user_ids);
    }
  }, 240_000);

  const OTHERS = ['outsider', 'anonymous', ...TOKENS] as const;

  it('CSV import as the outsider, anonymous and each token', async () => {
    for (const role of OTHERS) {
      for (const [place, folderId] of folders()) {
        const tag = `csv ${role} ${place} row`;
        const res = await call('POST', `/api/${w.teamId}/boards/${w.boardId}/imports/csv`, role, { folder_id: folderId, board_id: w.boardId, file_name: 'rows.csv', csv: `Name\n${tag}\n`, delimiter: ',', header: true, columns: [{ to: 'name' }] });
        const job = res.statusCode === 202 ? await untilEnded(jobIdOf(res.json()), role) : null;
        const rows = await named(tag);
        const where = `${role} into ${place}: ${res.statusCode} ${job?.state ?? ''} ${job?.error ?? res.body.slice(0, 200)}`;
        if (mayCreate[place].has(role)) {
          expect(job?.state, where).toBe('done');
          expect(rows.map((r) => r.folder_id), where).toEqual([folderId]);
        } else {
          expect(REFUSED, where).toContain(res.statusCode);
          expect(rows, where).toEqual([]);
        }
      }
    }
  }, 240_000);

  it('duplicates as the outsider, anonymous and each token: a copy that keeps a folder hidden needs the token’s admin', async () => {
    for (const role of OTHERS) {
      // The board (its copy has the hidden folder's copy: the owner reads it).
      const name = `dup board of ${role}`;
      const res = await call('POST', `/api/${w.teamId}/boards/${w.boardId}/duplicate`, role, { name, with_items: true });
      const job = res.statusCode === 202 ? await untilEnded(jobIdOf(res.json()), role) : null;
      const boards = (await named(name)).filter((r) => r.collection === 'folder');
      let where = `board ${role}: ${res.statusCode} ${job?.state ?? ''} ${job?.error ?? res.body.slice(0, 200)}`;
      if (role === 'token-admin') {
        expect(job?.state, where).toBe('done');
        const copies = (await server.ctx.db.selectFrom('records').select(['data']).where('collection', '=', 'folder').where('board_id', '=', boards[0]!.id).execute()).map((f) => f.data as { name: string; hidden?: boolean });
        expect(copies.filter((f) => f.name === 'Hidden').map((f) => f.hidden), where).toEqual([true]);
      } else if (role === 'token-write') {
        // Started (the route needs `write`), then refused where it would set `hidden`: nothing of it is left.
        expect(res.statusCode, where).toBe(202);
        expect(job?.state, where).toBe('failed');
        expect(boards, where).toEqual([]);
      } else {
        expect(REFUSED, where).toContain(res.statusCode);
        expect(boards, where).toEqual([]);
      }
      // Each folder beside itself.
      for (const [place, folderId] of folders()) {
        const folderName = `dup folder ${place} of ${role}`;
        const started = await call('POST', `/api/${w.teamId}/boards/${w.boardId}/duplicate-folder`, role, { folder_id: folderId, name: folderName, with_items: true });
        const ran = started.statusCode === 202 ? await untilEnded(jobIdOf(started.json()), role) : null;
        const made = (await named(folderName)).filter((r) => r.collection === 'folder');
        where = `folder ${place} ${role}: ${started.statusCode} ${ran?.state ?? ''} ${ran?.error ?? started.body.slice(0, 200)}`;
        if (role === 'token-admin' || (role === 'token-write' && place === 'open')) {
          expect(ran?.state, where).toBe('done');
          expect(made.map((m) => m.data.hidden === true), where).toEqual([place === 'hidden']);
        } else if (role === 'token-write') {
          expect(ran?.state, where).toBe('failed');
          expect(made, where).toEqual([]);
        } else {
          expect(REFUSED, where).toContain(started.statusCode);
          expect(made, where).toEqual([]);
        }
      }
    }
  }, 480_000);

  it('move to another workspace as the outsider, anonymous and each token: a token needs admin', async () => {
    const target = await createTeam(server.ctx, who.owner.user.id);
    for (const role of OTHERS) {
      const boardId = 'mv' + nanoid(10);
      await put(w, 'folders', { id: boardId, board_id: boardId, parent_id: null, name: `Move board of ${role}`, row_version: 1 }, who.owner.token);
      const hf = 'mh' + nanoid(10);
      await put(w, 'folders', { id: hf, board_id: boardId, parent_id: boardId, name: 'Hidden', hidden: true, user_ids: [who.owner.user.id], row_version: 1 }, who.owner.token);
      await put(w, 'items', { id: 'it' + nanoid(12), board_id: boardId, folder_id: hf, name: `${SECRET} to move (${role})`, row_version: 1 }, who.owner.token);
      const res = await call('POST', `/api/${w.teamId}/boards/${boardId}/move`, role, { team_id: role === 'outsider' ? await createTeam(server.ctx, who.outsider.user.id) : target });
      const job = res.statusCode === 202 ? await untilEnded(jobIdOf(res.json()), role) : null;
      const secret = await named(`${SECRET} to move (${role})`);
      const where = `${role}: ${res.statusCode} ${job?.state ?? ''} ${job?.error ?? res.body.slice(0, 200)}`;
      if (role === 'token-admin') {
        expect(job?.state, where).toBe('done');
        expect(secret.map((r) => r.team_id), where).toEqual([target]);
      } else {
        expect(REFUSED, where).toContain(res.statusCode);
        expect(secret.map((r) => r.team_id), where).toEqual([w.teamId]);
      }
    }
  }, 240_000);

  it('template save and use as the outsider, anonymous and each token: using one that keeps a folder hidden needs admin', async () => {
    for (const role of OTHERS) {
      const saved = await call('POST', `/api/${w.teamId}/boards/${w.boardId}/template`, role, { name: `tpl of ${role}`, with_items: true });
      const where = `${role}: ${saved.statusCode} ${saved.body.slice(0, 200)}`;
      if (role !== 'token-write' && role !== 'token-admin') {
        expect(REFUSED, where).toContain(saved.statusCode);
        continue;
      }
      expect(saved.statusCode, where).toBe(200);
      const name = `from tpl of ${role}`;
      const used = await call('POST', `/api/${w.teamId}/templates/${saved.json().data.id}/use`, role, { name });
      const boards = (await named(name)).filter((r) => r.collection === 'folder');
      if (role === 'token-write') {
        // The owner reads the hidden folder, so the template keeps it hidden: its use sets `hidden`.
        expect(used.statusCode, `${where} use: ${used.body}`).toBe(403);
        expect(boards, where).toEqual([]);
      } else {
        expect(used.statusCode, `${where} use: ${used.body}`).toBe(201);
        const copies = (await server.ctx.db.selectFrom('records').select(['data']).where('collection', '=', 'folder').where('board_id', '=', boards[0]!.id).execute()).map((f) => f.data as { name: string; hidden?: boolean; user_ids?: number[] });
        expect(copies.filter((f) => f.name === 'Hidden').map((f) => [f.hidden, f.user_ids]), where).toEqual([[true, [who.owner.user.id]]]);
      }
    }
    // Someone else's template is not the outsider's to use.
    const mine = await call('POST', `/api/${w.teamId}/boards/${w.boardId}/template`, 'owner', { name: 'tpl for the outsider', with_items: true });
    expect(mine.statusCode, mine.body).toBe(200);
    const stolen = await call('POST', `/api/${w.teamId}/templates/${mine.json().data.id}/use`, 'outsider', { name: 'used by the outsider' });
    expect(REFUSED).toContain(stolen.statusCode);
    expect(await named('used by the outsider')).toEqual([]);
  }, 240_000);

  it('a form owned by the outsider takes no answers; automations saved through tokens and authored by the outsider', async () => {
    const nameId = primaryAttributeIdFor(w.boardId);
    const form = 'fm' + nanoid(12);
    await put(w, 'folder-views', { id: form, board_id: w.boardId, folder_id: w.boardId, name: 'Form of the outsider', kind: 'form', settings: { enabled: true, fields: [{ attribute_id: nameId, required: true }], target_folder_id: w.folderId }, row_version: 1 }, who.owner.token);
    await sql`update records set created_by = ${who.outsider.user.id}, data = jsonb_set(data, '{owner_id}', to_jsonb(${who.outsider.user.id}::int)) where collection = 'folder_view' and id = ${form}`.execute(server.ctx.db);
    const sent = await api(server.app, 'POST', `/api/forms/${form}`, { body: { answers: { [nameId]: 'answer to the outsider' } }, headers: { 'x-forwarded-for': '10.7.0.1' } });
    expect(sent.statusCode, sent.body).toBe(404);
    expect(await named('answer to the outsider')).toEqual([]);

    // Automations: a button on the hidden item, a rule per author (or per token that saves it).
    const button = 'btn' + nanoid(10);
    await put(w, 'attributes', { id: button, board_id: w.boardId, folder_id: w.boardId, name: 'Matrix button', kind: 'button', row_version: 1 }, who.owner.token);
    const hiddenItem = (await put(w, 'items', { id: 'it' + nanoid(12), board_id: w.boardId, folder_id: w.hidden.folderId, name: 'hidden item for rules', row_version: 1 }, who.owner.token)).id;
    const rule = (name: string) => ({ id: 'au' + nanoid(12), board_id: w.boardId, name, enabled: true, trigger: { type: 'button_clicked', attribute_id: button }, conditions: [], match: 'all', actions: [{ type: 'create_item', board_id: w.boardId, folder_id: w.folderId, name: `${name} made from {{item.name}}`, values: [] }], position: 0, row_version: 1 });
    const saved: Record<string, string> = {};
    for (const role of OTHERS) {
      const body = rule(`rule of ${role}`);
      const res = await call('PUT', `/api/${w.teamId}/automations/${body.id}`, role, body);
      if (role === 'token-write' || role === 'token-admin') {
        expect(res.statusCode, `${role}: ${res.body}`).toBe(200);
        saved[role] = body.id;
      } else expect(REFUSED, `${role}: ${res.body}`).toContain(res.statusCode);
    }
    // The outsider as the author (as when a member who wrote it left the workspace).
    const left = rule('rule of the outsider');
    await put(w, 'automations', left, who.owner.token);
    await sql`update records set created_by = ${who.outsider.user.id}, data = jsonb_set(data, '{created_by}', to_jsonb(${who.outsider.user.id}::int)) where collection = 'automation' and id = ${left.id}`.execute(server.ctx.db);
    await server.ctx.jobs.drain();
    await put(w, 'button-clicks', { id: 'bc' + nanoid(12), board_id: w.boardId, item_id: hiddenItem, attribute_id: button, row_version: 1 }, who.owner.token);
    await server.ctx.jobs.drain();
    const runs = await server.ctx.db.selectFrom('automation_runs').select(['automation_id', 'result', 'error']).where('item_id', '=', hiddenItem).execute();
    const outcome = (id: string) => runs.find((r) => r.automation_id === id);
    // A rule saved through a token runs as the token's person (the owner, who reads the hidden item).
    for (const role of ['token-write', 'token-admin']) {
      expect(outcome(saved[role]!), role).toMatchObject({ result: 'done' });
      expect((await named(`rule of ${role} made from hidden item for rules`)).length, role).toBe(1);
    }
    // The outsider holds no MANAGE_AUTOMATIONS here: switched off, nothing made, the hidden name nowhere.
    expect(outcome(left.id)).toMatchObject({ result: 'skipped', error: expect.stringContaining('switched off') });
    expect(((await server.ctx.db.selectFrom('records').select('data').where('id', '=', left.id).executeTakeFirstOrThrow()).data as { enabled: boolean }).enabled).toBe(false);
    expect(await named('rule of the outsider made from hidden item for rules')).toEqual([]);
  }, 240_000);
  /** A board of the owner's workspace made by `maker`, with `items` items on it and a hidden folder holding one, whose members are `inHidden`. */
  async function boardToMove(maker: SignedIn, name: string, inHidden: number[], items = 4): Promise<string> {
    const boardId = 'mv' + nanoid(10);
    await put(w, 'folders', { id: boardId, board_id: boardId, parent_id: null, name, row_version: 1 }, who.owner.token);
    const members = await api(server.app, 'PUT', '/api/users', { token: who.owner.token, body: { board_id: boardId, user_ids: [...new Set([who.owner.user.id, ...inHidden])] } });
    expect(members.statusCode, members.body).toBe(200);
    const hf = 'mh' + nanoid(10);
    await put(w, 'folders', { id: hf, board_id: boardId, parent_id: boardId, name: 'Hidden', hidden: true, user_ids: inHidden, row_version: 1 }, who.owner.token);
    await put(w, 'items', { id: 'it' + nanoid(12), board_id: boardId, folder_id: hf, name: `${SECRET} on ${name}`, row_version: 1 }, who.owner.token);
    for (let i = 0; i < items; i++) await put(w, 'items', { id: 'it' + nanoid(12), board_id: boardId, folder_id: boardId, name: `${name} row ${i}`, row_version: 1 }, who.owner.token);
    // The board is the maker's own (DELETE_BOARD is "own" for members).
    await sql`update records set created_by = ${maker.user.id} where collection = 'folder' and id = ${boardId}`.execute(server.ctx.db);
    return boardId;
  }
  /** How many of the board's records are in each workspace. */
  const whereRecords = async (boardId: string) => {
    const rows = await server.ctx.db.selectFrom('records').select(['team_id']).where('board_id', '=', boardId).execute();
    const by = new Map<number, number>();
    for (const r of rows) by.set(r.team_id, (by.get(r.team_id) ?? 0) + 1);
    return by;
  };

  it('a move is judged at every batch with its mover’s rights of now: a right lost midway stops it and every record goes back', async () => {
    const role = 'full-member-in-hidden';
    const mover = who[role];
    const boardId = await boardToMove(mover, 'Move judged per batch', [who.owner.user.id, mover.user.id]);
    const total = (await whereRecords(boardId)).get(w.teamId)!;
    const target = await createTeam(server.ctx, mover.user.id);
    boardJobTuning.sliceMs = 0;
    moveTuning.recordsPerBatch = 2;
    try {
      const res = await call('POST', `/api/${w.teamId}/boards/${boardId}/move`, role, { team_id: target });
      expect(res.statusCode, res.body).toBe(202);
      // One step a pass, until some of the board is in the target and some still here.
      const deadline = Date.now() + 120_000;
      for (;;) {
        await (server.ctx.jobs as PassLoop).runOnce();
        const moved = (await whereRecords(boardId)).get(target) ?? 0;
        if (moved > 0 && moved < total) break;
        expect(moved, 'the move ended before it could be stopped midway').toBeLessThan(total);
        expect(Date.now() < deadline, 'no batch moved').toBe(true);
      }
      // The mover is taken out of the hidden folder (its folder has not moved yet): the next batch refuses.
      await setHiddenMembers((await named('Hidden')).find((r) => r.board_id === boardId)!.id, [who.owner.user.id]);
      const job = await untilEnded(jobIdOf(res.json()), role);
      expect(job.state, job.error ?? '').toBe('failed');
      await server.ctx.jobs.drain();
      expect([...(await whereRecords(boardId))]).toEqual([[w.teamId, total]]);
    } finally {
      boardJobTuning.sliceMs = 2000;
      moveTuning.recordsPerBatch = 5000;
    }
  }, 240_000);

  it('a move started through a token runs with that token’s abilities: without admin its run moves nothing', async () => {
    const target = await createTeam(server.ctx, who.owner.user.id);
    const boardId = await boardToMove(who.owner, 'Move through a token', [who.owner.user.id], 1);
    const res = await call('POST', `/api/${w.teamId}/boards/${boardId}/move`, 'token-admin', { team_id: target });
    expect(res.statusCode, res.body).toBe(202);
    const id = jobIdOf(res.json());
    // The job carries the abilities of the token that started it, to be judged with at its run.
    const row = await server.ctx.db.selectFrom('board_jobs').select(['input']).where('id', '=', id).executeTakeFirstOrThrow();
    expect((row.input as { token_abilities?: string[] }).token_abilities).toEqual(ABILITIES['token-admin']);
    // A job whose token lacks `admin` (the route refuses to start one: this is the run's own check).
    await sql`update board_jobs set input = jsonb_set(input, '{token_abilities}', ${JSON.stringify(ABILITIES['token-write'])}::jsonb) where id = ${id}`.execute(server.ctx.db);
    const job = await untilEnded(id, 'token-admin');
    expect(job.state, job.error ?? '').toBe('failed');
    expect([...(await whereRecords(boardId))].map(([team]) => team)).toEqual([w.teamId]);
  }, 240_000);
  /** A Yjs update typing one paragraph of `words` (as the editor sends). */
  const typed = (words: string) => {
    const doc = new Y.Doc();
    const paragraph = new Y.XmlElement('paragraph');
    paragraph.insert(0, [new Y.XmlText(words)]);
    doc.getXmlFragment(DOC_FRAGMENT).insert(0, [paragraph]);
    return Buffer.from(Y.encodeStateAsUpdate(doc)).toString('base64');
  };
  /** The stored document updates of an item: who made each, and the text of the whole body. */
  const docOf = async (itemId: string) => {
    const rows = await server.ctx.db.selectFrom('records').select(['created_by', 'data']).where('collection', '=', 'doc_update').where(sql<boolean>`data->>'item_id' = ${itemId}`).execute();
    const doc = new Y.Doc();
    for (const r of rows) Y.applyUpdate(doc, Buffer.from(String((r.data as { update: string }).update), 'base64'));
    return { authors: rows.map((r) => [r.created_by, (r.data as { updated_by?: number }).updated_by]), text: doc.getXmlFragment(DOC_FRAGMENT).toString() };
  };
  /** The compaction job runs at the end of its window (server/docs/compact.ts), as in production. */
  const compactNow = async () => {
    await server.ctx.jobs.drain();
    server.advance(COMPACT_WINDOW_MS + 1000);
    await server.ctx.jobs.drain();
  };
  const sendDoc = (role: Role, itemId: string, words: string) => call('PUT', `/api/${w.teamId}/doc-updates/${'du' + nanoid(12)}`, role, { board_id: w.boardId, item_id: itemId, update: typed(words), row_version: 1 });

  it('docs compaction acts for the newest author who may still edit the document, never as the workspace owner', async () => {
    const table: string[] = [];
    const edited: Record<'open' | 'hidden', Role[]> = { open: [], hidden: [] };
    const items: { role: Role; place: 'open' | 'hidden'; itemId: string; accepted: boolean }[] = [];
    for (const role of ROLES) {
      for (const [place, folderId] of folders()) {
        const itemId = (await put(w, 'items', { id: 'it' + nanoid(12), board_id: w.boardId, folder_id: folderId, name: `doc of ${role} ${place}`, row_version: 1 }, who.owner.token)).id;
        const answers = [(await sendDoc(role, itemId, `first by ${role}`)).statusCode, (await sendDoc(role, itemId, `second by ${role}`)).statusCode];
        const accepted = answers.every((c) => c === 200);
        if (!accepted) expect(REFUSED, `${role} ${place}: ${answers}`).toEqual(expect.arrayContaining(answers));
        else edited[place].push(role);
        items.push({ role, place, itemId, accepted });
      }
    }
    // The request path's rights: the matrix is not vacuous.
    expect(edited.hidden.sort()).toEqual(['admin', 'full-member-in-hidden', 'owner', 'token-admin', 'token-write']);
    expect(edited.open.sort()).toEqual(['admin', 'full-member', 'full-member-in-hidden', 'owner', 'token-admin', 'token-write']);
    await compactNow();
    for (const { role, place, itemId, accepted } of items) {
      const { authors, text } = await docOf(itemId);
      table.push(`${role} ${place}: ${JSON.stringify(authors)}`);
      if (!accepted) {
        expect(authors, `${role} ${place}`).toEqual([]);
        continue;
      }
      // One merged copy, made and last changed by the person who wrote it (a token's: its owner), with both edits.
      const author = who[personOf(role)!].user.id;
      expect(authors, `${role} ${place}\n${table.join('\n')}`).toEqual([[author, author]]);
      expect(text).toContain(`first by ${role}`);
      expect(text).toContain(`second by ${role}`);
    }
  }, 240_000);

  it('docs compaction judges its author’s rights of now: one who lost the document is passed over, and with nobody left nothing is compacted', async () => {
    const role = 'full-member-in-hidden';
    const before = (await folderData(w.hidden.folderId)).user_ids;
    const shared = (await put(w, 'items', { id: 'it' + nanoid(12), board_id: w.boardId, folder_id: w.hidden.folderId, name: 'doc of two', row_version: 1 }, who.owner.token)).id;
    const theirs = (await put(w, 'items', { id: 'it' + nanoid(12), board_id: w.boardId, folder_id: w.hidden.folderId, name: 'doc of one who left', row_version: 1 }, who.owner.token)).id;
    expect((await sendDoc('owner', shared, 'by the owner')).statusCode).toBe(200);
    for (const words of ['later by the member', 'last by the member']) {
      expect((await sendDoc(role, shared, words)).statusCode).toBe(200);
      expect((await sendDoc(role, theirs, words)).statusCode).toBe(200);
    }
    // The member leaves the hidden folder before the compaction runs.
    await setHiddenMembers(w.hidden.folderId, before.filter((id) => id !== who[role].user.id));
    try {
      await compactNow();
      // Acted for the owner, the newest author who may still edit it; nothing of the member's is lost.
      const both = await docOf(shared);
      expect(both.authors).toEqual([[who.owner.user.id, who.owner.user.id]]);
      for (const words of ['by the owner', 'later by the member', 'last by the member']) expect(both.text).toContain(words);
      // Nobody who wrote it may edit it now: left as it was, both updates the member's.
      const one = await docOf(theirs);
      expect(one.authors).toEqual([
        [who[role].user.id, who[role].user.id],
        [who[role].user.id, who[role].user.id],
      ]);
    } finally {
      await setHiddenMembers(w.hidden.folderId, before);
    }
  }, 240_000);
});
