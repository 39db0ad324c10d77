import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { teamWithRoles, board, attribute, newId, type TeamFixture } from './sync-fixtures';
import { primaryAttributeIdFor } from '../../schema/board-defaults';
import { m0170_board_primary_attributes } from '../../server/db/migrations/0170_board_primary_attributes';

/** Every board has a name attribute (issue #17 part 2, decision 0170): new boards, batches, and migration 0170. */
describe('boards: the primary (name) attribute', () => {
  let server: TestServer;
  let t: TeamFixture;
  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
  });
  afterAll(() => server.close());

  const attributesOf = async (boardId: string) =>
    (await api(server.app, 'GET', `/api/${t.teamId}/attributes?board_id=${boardId}`, { token: t.owner.token })).json().data as { id: string; kind: string; name: string; deleted_at?: string | null }[];

  it('a board saved alone gets one, created by the server in the same write', async () => {
    const rec = board({ name: 'Alone' });
    const res = await api(server.app, 'PUT', `/api/${t.teamId}/folders/${rec.id}`, { token: t.admin.token, body: rec });
    expect(res.statusCode).toBe(200);
    const primaries = (await attributesOf(rec.id)).filter((a) => a.kind === 'primary');
    expect(primaries).toEqual([expect.objectContaining({ id: primaryAttributeIdFor(rec.id), name: 'Name', kind: 'primary' })]);
    // It reaches replicas through the change feed like any other save.
    const changes = (await api(server.app, 'GET', `/api/${t.teamId}/changes?after=0`, { token: t.owner.token })).json();
    expect(JSON.stringify(changes)).toContain(primaryAttributeIdFor(rec.id));
  });

  it('a batch that brings its own primary attribute keeps it and gets no second one', async () => {
    const rec = board({ name: 'With its own' });
    const own = attribute(rec.id, { name: 'Item', kind: 'primary', position: 0 });
    const res = await api(server.app, 'POST', `/api/${t.teamId}/batch`, {
      token: t.owner.token,
      body: { transaction: 'b1', requests: [
        { method: 'PUT', route: `folders/${rec.id}`, payload: rec },
        { method: 'PUT', route: `attributes/${own.id}`, payload: own },
      ] },
    });
    expect(res.statusCode).toBe(200);
    const primaries = (await attributesOf(rec.id)).filter((a) => a.kind === 'primary');
    expect(primaries.map((a) => a.id)).toEqual([own.id]);
  });

  it('a batch whose attribute request fails still leaves the board with a name attribute', async () => {
    const rec = board({ name: 'Attribute refused' });
    const bad = attribute(rec.id, { name: '', kind: 'primary' });
    const res = await api(server.app, 'POST', `/api/${t.teamId}/batch`, {
      token: t.owner.token,
      body: { transaction: null, requests: [
        { method: 'PUT', route: `folders/${rec.id}`, payload: rec },
        { method: 'PUT', route: `attributes/${bad.id}`, payload: bad },
      ] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().map((r: { status: number }) => r.status)).toEqual([200, 422]);
    expect((await attributesOf(rec.id)).filter((a) => a.kind === 'primary').map((a) => a.id)).toEqual([primaryAttributeIdFor(rec.id)]);
  });

  it('a folder inside a board and a refused board create nothing', async () => {
    const rec = board({ name: 'Refused' });
    const refused = await api(server.app, 'PUT', `/api/${t.teamId}/folders/${rec.id}`, { token: t.stranger.token, body: rec });
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    const stored = await server.ctx.db.selectFrom('records').select('id').where('collection', '=', 'attribute').where('board_id', '=', rec.id).execute();
    expect(stored).toEqual([]);
  });

  it('migration 0170 gives boards without one a name attribute, logged, once', async () => {
    // An old board, written straight to the table as boards were before the rule.
    const oldBoard = newId();
    const kept = newId();
    const at = new Date().toISOString();
    for (const id of [oldBoard, kept]) {
      await server.ctx.db.insertInto('records').values({ collection: 'folder', id, team_id: t.teamId, board_id: id, row_version: 1, data: JSON.stringify({ id, board_id: id, parent_id: null, name: 'Old', position: 0, row_version: 1, created_at: at }), created_by: t.owner.user.id }).execute();
    }
    const keptPrimary = newId();
    await server.ctx.db.insertInto('records').values({ collection: 'attribute', id: keptPrimary, team_id: t.teamId, board_id: kept, row_version: 1, data: JSON.stringify({ id: keptPrimary, board_id: kept, folder_id: kept, name: 'Title', kind: 'primary', row_version: 1 }), created_by: t.owner.user.id }).execute();

    await server.ctx.db.transaction().execute((trx) => m0170_board_primary_attributes.up(trx));
    await server.ctx.db.transaction().execute((trx) => m0170_board_primary_attributes.up(trx));

    const added = (await attributesOf(oldBoard)).filter((a) => a.kind === 'primary');
    expect(added).toEqual([expect.objectContaining({ id: primaryAttributeIdFor(oldBoard), name: 'Name', folder_id: oldBoard, deleted_at: null })]);
    expect((await attributesOf(kept)).map((a) => a.id)).toEqual([keptPrimary]);
    const logged = await sql<{ n: string }>`select count(*) as n from change_log where record_id = ${primaryAttributeIdFor(oldBoard)}`.execute(server.ctx.db);
    expect(Number(logged.rows[0]!.n)).toBe(1);
  });
});

describe('boards: a caller that adds its own name attribute after the board', () => {
  let server: TestServer;
  let t: TeamFixture;
  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
  });
  afterAll(() => server.close());

  it("replaces the server's untouched one, but not one that was renamed", async () => {
    const rec = board({ name: 'Two steps' });
    expect((await api(server.app, 'PUT', `/api/${t.teamId}/folders/${rec.id}`, { token: t.owner.token, body: rec })).statusCode).toBe(200);
    const own = attribute(rec.id, { name: 'Title', kind: 'primary' });
    const saved = await api(server.app, 'PUT', `/api/${t.teamId}/attributes/${own.id}`, { token: t.owner.token, body: own });
    expect(saved.statusCode, saved.body).toBe(200);
    const attributes = (await api(server.app, 'GET', `/api/${t.teamId}/attributes?board_id=${rec.id}`, { token: t.owner.token })).json().data as { id: string; kind: string }[];
    expect(attributes.filter((a) => a.kind === 'primary').map((a) => a.id)).toEqual([own.id]);

    const renamedBoard = board({ name: 'Renamed name' });
    await api(server.app, 'PUT', `/api/${t.teamId}/folders/${renamedBoard.id}`, { token: t.owner.token, body: renamedBoard });
    const serverId = primaryAttributeIdFor(renamedBoard.id);
    const stored = (await api(server.app, 'GET', `/api/${t.teamId}/attributes?board_id=${renamedBoard.id}`, { token: t.owner.token })).json().data.find((a: { id: string }) => a.id === serverId);
    const renamed = await api(server.app, 'PUT', `/api/${t.teamId}/attributes/${serverId}`, { token: t.owner.token, body: { ...stored, name: 'Task', row_version: 2, created_at: undefined, updated_at: undefined, team_id: undefined, deleted_at: undefined } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const second = attribute(renamedBoard.id, { name: 'Other', kind: 'primary' });
    expect((await api(server.app, 'PUT', `/api/${t.teamId}/attributes/${second.id}`, { token: t.owner.token, body: second })).statusCode).toBe(422);
  });
});
