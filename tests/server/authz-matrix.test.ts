import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../helpers/test-server';
import { CHANNEL_ACCESS, ROUTE_ACCESS, isApiRoute, routeAccess, type RouteAccess } from '../../schema/route-access';
import { MATRIX_ROLES, buildWorld, restoreMemberships, type MatrixRole, type World } from './authz-fixtures';
import { callFor, chainTo, expectedFor, judge, permissionUser } from './authz-calls';
import { can, Permission } from '../../schema/permissions';
import { collectionList } from '../../schema/collections';

/**
 * The authorisation matrix (issue #9): every API route the server registers × owner, admin, full
 * member, restricted member, invited board guest, outsider (signed in, owner of another
 * workspace) and anonymous visitor. The expected answer is not listed here: it is computed from
 * the route's entry in schema/route-access.ts and the permission model's role defaults
 * (schema/permissions.ts). Allowed means the call got past authorisation (anything but 401
 * unauthenticated / 403 / 404 / 5xx: a 422 for a body the route does not like still passed);
 * refused means exactly 401 for an anonymous caller and 403 for a signed-in one.
 */

const entries = Object.entries(ROUTE_ACCESS) as [string, RouteAccess][];
// Deleting the workspace goes last, so that a wrongly allowed delete cannot take the others' world with it.
const ordered = [...entries].sort(([a], [b]) => Number(a === 'DELETE /api/teams/:id') - Number(b === 'DELETE /api/teams/:id'));

describe('authorisation matrix', () => {
  let server: TestServer;
  let w: World;

  beforeAll(async () => {
    server = await createTestServer({ realtime: true });
    w = await buildWorld(server.app, server.ctx);
  });
  afterAll(() => server?.close());

  it('has an access entry for every API route the server registers, and no entry for a route that is gone', () => {
    const registered = server.app.registeredRoutes.filter((r) => r.method !== 'HEAD' && isApiRoute(r.url));
    expect(registered.length).toBeGreaterThan(50);
    const missing = registered.filter((r) => !routeAccess(r.method, r.url)).map((r) => `${r.method} ${r.url}`);
    expect(missing, 'routes without an entry in schema/route-access.ts').toEqual([]);
    const keys = new Set(registered.map((r) => `${r.method} ${r.url}`));
    expect(entries.map(([key]) => key).filter((key) => !keys.has(key)), 'entries for routes the server does not register').toEqual([]);
  });

  /** Calls one route as every role and lists every answer that differs from the model's. */
  async function run(key: string, access: RouteAccess, roles: readonly MatrixRole[], opts: { boardId?: string; hidden?: boolean; liveRestore?: boolean; body?: (body: any) => unknown } = {}) {
    const [method, pattern] = key.split(' ', 2) as [string, string];
    const problems: string[] = [];
    for (const who of roles) {
      const { call, target, boardId } = await callFor(w, method, pattern, access, who, opts);
      const expected = await expectedFor(w, access, who, target, boardId);
      if (opts.body) call.body = opts.body(call.body);
      const headers: Record<string, string> = call.token ? { authorization: `Bearer ${call.token}` } : {};
      const res = await server.app.inject({ method: call.method, url: call.url, headers, ...(call.body !== undefined ? { payload: call.body as object } : {}) });
      const problem = judge(expected, res.statusCode, res.body);
      if (problem) problems.push(`${who}: ${problem} (${call.method} ${call.url}) ${res.body.slice(0, 160)}`);
      if (pattern.startsWith('/api/teams/:id')) await restoreMemberships(w);
    }
    return problems;
  }

  it.each(ordered)('%s answers each role as the permission model says', async (key, access) => {
    expect(await run(key, access, MATRIX_ROLES)).toEqual([]);
  });

  // A public board's visitor: every board-scoped call, asked about the public board by people
  // outside the workspace (anonymous, and signed in from another workspace).
  const boardScoped = ordered.filter(([key, access]) => access.on === 'board' || key.includes(':boardId') || access.query?.includes('{boardId}'));
  it.each(boardScoped.filter(([, access]) => access.board !== 'public'))('%s answers a public board’s visitors as the permission model says', async (key, access) => {
    expect(await run(key, access, ['outsider', 'anonymous'], { boardId: w.publicBoardId })).toEqual([]);
  });

  // A hidden folder (members: owner and admin): every call on a record in it, by every role. The
  // model refuses the others (VIEW_FOLDER is denied to tag:board_locked_out), whatever their role.
  const recordScoped = ordered.filter(([, access]) => access.on === 'record');
  it.each(recordScoped)('%s answers each role as the model says for a record in a hidden folder', async (key, access) => {
    expect(await run(key, access, MATRIX_ROLES, { hidden: true })).toEqual([]);
  });

  // Restoring a record that is not in the trash changes nothing, but is still judged (and answers
  // the record only to whoever may restore it): a refused caller must not read it this way.
  const restores = ordered.filter(([key]) => key.endsWith('/restore'));
  it.each(restores)('%s judges a record that is not in the trash like one that is', async (key, access) => {
    expect(await run(key, access, MATRIX_ROLES, { liveRestore: true })).toEqual([]);
    expect(await run(key, access, MATRIX_ROLES, { liveRestore: true, hidden: true })).toEqual([]);
  });

  // No oracle (issue #9, security review 17): a caller who may not manage the board's members
  // learns nothing about user ids; a board id that names nothing is refused like one they may not manage.
  it('PUT /api/users answers unknown user ids only to those who may manage the board', async () => {
    const access = ROUTE_ACCESS['PUT /api/users'];
    expect(await run('PUT /api/users', access, MATRIX_ROLES, { body: (body) => ({ ...body, user_ids: [...body.user_ids, 2_000_000_000] }) })).toEqual([]);
    const problems: string[] = [];
    for (const who of MATRIX_ROLES) {
      const token = who === 'anonymous' ? undefined : w.users[who].token;
      const res = await server.app.inject({ method: 'PUT', url: '/api/users', headers: token ? { authorization: `Bearer ${token}` } : {}, payload: { board_id: 'no-such-board', user_ids: [] } });
      const expected = who === 'anonymous' ? 401 : 403;
      if (res.statusCode !== expected) problems.push(`${who}: unknown board: expected ${expected}, got ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
    expect(problems).toEqual([]);
  });

  // Channel auth answers each channel inside its 200: the channel table, per role, for the
  // matrix board, the public board and the hidden folder's board, the owner's user channel.
  it('POST /api/broadcasting/multi-auth answers each channel as the channel table and the model say', async () => {
    const problems: string[] = [];
    for (const boardId of [w.boardId, w.publicBoardId]) {
      const channels = Object.entries(CHANNEL_ACCESS).map(([template, access]) => ({
        access,
        name: template.replace('{teamId}', String(w.teamId)).replace('{boardId}', boardId).replace('{userId}', String(w.users.owner.user.id)),
      }));
      for (const who of MATRIX_ROLES) {
        const token = who === 'anonymous' ? undefined : w.users[who].token;
        const res = await server.app.inject({ method: 'POST', url: '/api/broadcasting/multi-auth', headers: token ? { authorization: `Bearer ${token}` } : {}, payload: { socketId: '123.456', channelNames: channels.map((c) => c.name) } });
        if (res.statusCode !== 200) {
          problems.push(`${who}: multi-auth answered ${res.statusCode}`);
          continue;
        }
        const answer = res.json() as Record<string, { status: number }>;
        for (const { access, name } of channels) {
          const expected = await expectedFor(w, access, who, null, boardId);
          const selfOk = !access.self || permissionUser(w, who).id === w.users.owner.user.id;
          const want = expected.allowed && selfOk ? 200 : 403;
          if (answer[name]?.status !== want) problems.push(`${who}: ${name}: expected ${want}, got ${answer[name]?.status}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  // The workspace's own entries (teams.permissions) override the role defaults: with some
  // defaults turned round, every route asking one of those permissions follows the stored entries.
  describe('with the workspace’s own entries turning some defaults round', () => {
    const entries: Record<string, 'allow' | 'deny'> = {
      'CREATE_FOLDER:role:restricted-member': 'allow',
      'MANAGE_ATTRIBUTES:role:restricted-member': 'allow',
      'CREATE_ITEM:role:full-member': 'deny',
      'EDIT_ITEM:role:full-member': 'deny',
      'INVITE_MEMBERS:role:full-member': 'allow',
      'EDIT_WORKSPACE_SETTINGS:role:admin': 'deny',
      'VIEW_BOARD:tag:guest_user': 'deny',
    };
    const turned = new Set(Object.keys(entries).map((key) => key.split(':')[0]));
    beforeAll(async () => {
      const res = await server.app.inject({ method: 'PUT', url: `/api/${w.teamId}/permissions`, headers: { authorization: `Bearer ${w.users.owner.token}` }, payload: { permissions: entries } });
      expect(res.statusCode, res.body).toBe(200);
    });
    afterAll(async () => {
      await server.app.inject({ method: 'PUT', url: `/api/${w.teamId}/permissions`, headers: { authorization: `Bearer ${w.users.owner.token}` }, payload: { permissions: {} } });
    });
    it.each(ordered.filter(([, access]) => access.permission && turned.has(access.permission)))('%s follows the stored entries', async (key, access) => {
      expect(await run(key, access, MATRIX_ROLES)).toEqual([]);
    });
  });

  // What the allowed reads answer: nothing of the hidden folder (its records, a trashed item's
  // tombstone, the folder itself) reaches a role the model does not let see it, through any read.
  it('reads answer nothing of a hidden folder to a role that may not see it', async () => {
    const owner = w.users.owner.token;
    const trashed = await callFor(w, 'DELETE', '/api/:teamId/items/:id', ROUTE_ACCESS['DELETE /api/:teamId/items/:id'], 'owner', { hidden: true });
    expect((await server.app.inject({ method: 'DELETE', url: trashed.call.url, headers: { authorization: `Bearer ${owner}` } })).statusCode).toBe(200);
    const trashedId = decodeURIComponent(trashed.call.url.split('/').pop()!);
    // Automations belong to the board, not a folder: the hidden place cannot hide one.
    const hiddenIds = [w.hidden.folderId, trashedId, ...Object.entries(w.hidden.records).filter(([collection]) => collection !== 'automation').map(([, r]) => r.id)];
    const reads = [
      ...collectionList.map((def) => `/api/${w.teamId}/${def.route}?board_id=${w.boardId}`),
      `/api/${w.teamId}/comments/multiple?board_id=${w.boardId}&item_ids=${w.hidden.records.item.id},${w.records.item.id}`,
      `/api/${w.teamId}/changes?after=0&board_id=${w.boardId}`,
      `/api/${w.teamId}/trash?board_id=${w.boardId}`,
      `/api/${w.teamId}/time-tracking/${w.boardId}`,
      `/api/${w.teamId}/permissions/boards/${w.boardId}`,
    ];
    const problems: string[] = [];
    const hiddenChain = await chainTo(w, w.boardId, w.hidden.folderId);
    for (const who of MATRIX_ROLES) {
      const seesHidden = can({ permission: Permission.VIEW_FOLDER, user: permissionUser(w, who), chain: hiddenChain });
      const token = who === 'anonymous' ? null : who === 'owner' ? owner : w.users[who].token;
      for (const url of reads) {
        const res = await server.app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });
        if (res.statusCode !== 200) continue; // refusals are the matrix's business
        const leaked = hiddenIds.filter((id) => res.body.includes(id));
        if (!seesHidden && leaked.length) problems.push(`${who}: ${url} shows ${leaked.join(', ')}`);
      }
      if (seesHidden) {
        // Not vacuous: whoever may see the folder does get its records.
        const items = await server.app.inject({ method: 'GET', url: `/api/${w.teamId}/items?board_id=${w.boardId}`, headers: { authorization: `Bearer ${token}` } });
        if (!items.body.includes(w.hidden.records.item.id)) problems.push(`${who}: may see the hidden folder but its item is not in the index load`);
      }
    }
    expect(problems).toEqual([]);
  });
});
