import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { board, folder, item, teamWithRoles, type TeamFixture } from './sync-fixtures';

/**
 * /changes requests in flight for the same page share one read of the change log and the records
 * (decision 0192), and each reader still gets only what it may read (decision 0090).
 */
describe('/changes: a page shared by readers in flight, judged per reader', () => {
  let server: TestServer;
  let t: TeamFixture;
  const b = board({ name: 'Shared page' });
  const hidden = folder(b.id, { name: 'Hidden', hidden: true });
  const open = item(b.id, { name: 'open item' });
  const secret = item(b.id, { folder_id: hidden.id, name: 'secret item' });

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
    Object.assign(hidden, { user_ids: [t.owner.user.id] });
    for (const [route, body] of [['folders', b], ['folders', hidden], ['items', open], ['items', secret]] as const) {
      const res = await api(server.app, 'PUT', `/api/${t.teamId}/${route}/${body.id}`, { token: t.owner.token, body });
      expect(res.statusCode, res.body).toBe(200);
    }
  });
  afterAll(() => server?.close());

  it('answers each of many parallel readers of one page with its own view of it', async () => {
    const read = (token: string) => api(server.app, 'GET', `/api/${t.teamId}/changes?after=0&board_id=${b.id}`, { token });
    const readers = Array.from({ length: 12 }, (_, n) => (n % 2 ? t.full : t.owner));
    const answers = await Promise.all(readers.map((r) => read(r.token)));
    answers.forEach((res, n) => {
      expect(res.statusCode).toBe(200);
      const ids = res.json().data.map((c: { id: string }) => c.id);
      expect(ids).toContain(open.id);
      if (readers[n] === t.owner) expect(ids).toContain(secret.id);
      else expect(ids).not.toContain(secret.id);
      expect(res.json().cursor).toBe(answers[0]!.json().cursor);
    });
    expect(JSON.stringify(answers.filter((_, n) => readers[n] === t.full).map((a) => a.json()))).not.toContain('secret item');
  });
});
