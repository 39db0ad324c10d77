import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { board, item, teamWithRoles, type TeamFixture } from './sync-fixtures';
import { registerFloor } from '../../server/sync/cursor';
import { writeLogged } from '../../server/sync/store';

/**
 * Saves of one team run side by side (docs/decisions/0031-change-cursor.md): the row_version
 * check is part of the write, and /changes never hands out a cursor past a change still being
 * written. The interleaving tests need a second connection, so they run on PostgreSQL only
 * (PGlite's one connection never interleaves transactions).
 */
const onPostgres = !!process.env.TEST_DATABASE_URL;

describe('sync: concurrent writers', () => {
  let server: TestServer;
  let t: TeamFixture;
  let b: ReturnType<typeof board>;
  const put = (route: string, rec: { id: string; [k: string]: unknown }, token = t.owner.token) => api(server.app, 'PUT', `/api/${t.teamId}/${route}/${rec.id}`, { token, body: rec });
  const changes = (after: number) => api(server.app, 'GET', `/api/${t.teamId}/changes?after=${after}`, { token: t.owner.token });

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
    b = board({ name: 'Concurrent' });
    expect((await put('folders', b)).statusCode).toBe(200);
  });
  afterAll(() => server.close());

  it('of eight saves of one version sent at once, one is stored and the others get 409 with it', async () => {
    const it0 = item(b.id, { name: 'start' });
    expect((await put('items', it0)).statusCode).toBe(200);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => put('items', { ...it0, name: `edit ${i}`, row_version: 2 })));
    const ok = answers.filter((a) => a.statusCode === 200);
    const refused = answers.filter((a) => a.statusCode === 409);
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(7);
    const winner = ok[0]!.json().data.name;
    for (const r of refused) expect(r.json().data).toMatchObject({ id: it0.id, row_version: 2, name: winner });
    const logged = await server.ctx.db.selectFrom('change_log').select('seq').where('record_id', '=', it0.id).execute();
    expect(logged).toHaveLength(2); // the create and the one accepted edit
  });

  it('concurrent creates of one record: one 200, the rest 409 carrying it', async () => {
    const rec = item(b.id, { name: 'twin' });
    const answers = await Promise.all(Array.from({ length: 6 }, () => put('items', rec)));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 409).map((a) => a.json().data.id)).toEqual(Array(5).fill(rec.id));
  });

  it.skipIf(!onPostgres)('/changes does not pass a change that commits after a later one', async () => {
    const start = (await changes(0)).json().cursor as number;
    const late = item(b.id, { name: 'late' });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let registered!: () => void;
    const floorTaken = new Promise<void>((resolve) => (registered = resolve));
    // A writer that takes its change number first and commits last.
    const slow = server.ctx.db.transaction().execute(async (trx) => {
      await sql`select ${registerFloor}`.execute(trx);
      const rec = { ...late, team_id: t.teamId };
      expect(await writeLogged(trx, 'item', t.teamId, rec, t.owner.user.id, null, new Date(), 'saved')).toBe(true);
      registered();
      await held;
    });
    await floorTaken;
    const early = item(b.id, { name: 'early' });
    expect((await put('items', early)).statusCode).toBe(200);

    const during = (await changes(start)).json();
    expect(during.data.map((c: { id: string }) => c.id)).not.toContain(late.id);
    expect(during.data.map((c: { id: string }) => c.id)).not.toContain(early.id); // its number is above the late one's
    const lateSeq = Number((await server.ctx.db.selectFrom('change_log').select(sql<string>`max(seq)`.as('s')).executeTakeFirstOrThrow()).s);
    expect(during.cursor).toBeLessThan(lateSeq);

    release();
    await slow;
    const after = (await changes(during.cursor)).json();
    const ids = after.data.map((c: { id: string }) => c.id);
    expect(ids).toContain(late.id);
    expect(ids).toContain(early.id);
  });

  it.skipIf(!onPostgres)('a batch whose saves were overtaken while it ran answers 409 for those and stores the rest', async () => {
    const target = item(b.id, { name: 'contested' });
    expect((await put('items', target)).statusCode).toBe(200);
    const other = item(b.id, { name: 'bystander' });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const rowLocked = new Promise<void>((resolve) => (written = resolve));
    // Someone else's edit of the same record, committed while the batch is between its read and its write.
    const rival = server.ctx.db.transaction().execute(async (trx) => {
      await sql`select ${registerFloor}`.execute(trx);
      const rec = { ...target, name: 'rival', row_version: 2, team_id: t.teamId };
      expect(await writeLogged(trx, 'item', t.teamId, rec, t.owner.user.id, null, new Date(), 'saved')).toBe(true);
      written();
      await held;
    });
    await rowLocked;
    const batch = api(server.app, 'POST', `/api/${t.teamId}/batch`, {
      token: t.owner.token,
      body: {
        transaction: null,
        requests: [
          { method: 'put', route: `items/${other.id}`, payload: other },
          { method: 'put', route: `items/${target.id}`, payload: { ...target, name: 'mine', row_version: 2 } },
        ],
      },
    });
    await new Promise((r) => setTimeout(r, 300)); // the batch reaches its write and waits for the rival's row
    release();
    await rival;
    const res = await batch;
    expect(res.statusCode, res.body).toBe(200);
    const [first, second] = res.json();
    expect(first.status).toBe(200);
    expect(second).toMatchObject({ status: 409, data: { type: 'conflict', data: { name: 'rival', row_version: 2 } } });
    const stored = await server.ctx.db.selectFrom('records').select(['id', 'data']).where('id', 'in', [target.id, other.id]).execute();
    expect(Object.fromEntries(stored.map((r) => [r.id, (r.data as { name: string }).name]))).toEqual({ [target.id]: 'rival', [other.id]: 'bystander' });
  });
});
