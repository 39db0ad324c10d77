import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestServer, type TestServer } from '../helpers/test-server';
import { board, folder, teamWithRoles, type TeamFixture } from './sync-fixtures';
import { API_IMPORT_START_RULE, TRELLO_LISTING_RULE } from '../../server/imports/trello-gitlab-routes';

/**
 * Issue #26, N4 "throttle per user": starting an import read through Gitlab's or Trello's API
 * makes the server fetch an address the user chose, so the starts are counted per user in the
 * database throttle. Past the limit the start is refused with 429 before anything is fetched (the
 * local listener sees no request); another user keeps their own count; file imports are not counted.
 */

const TRELLO_BOARD = '65a1f0c2e4b0a1b2c3d4e700';

describe('API import starts are throttled per user (N4)', () => {
  let server: TestServer;
  let t: TeamFixture;
  let listener: Server;
  let listenerUrl: string;
  /** Every request the local listener received. */
  const hits: string[] = [];
  const b = board({ name: 'Imports' });
  const target = folder(b.id, { name: 'Inbox' });

  const post = (kind: 'trello' | 'gitlab', body: Record<string, unknown>, token: string) => api(server.app, 'POST', `/api/${t.teamId}/boards/${b.id}/imports/${kind}`, { token, body: { folder_id: target.id, ...body } });
  const gitlabProbe = (token: string) => post('gitlab', { url: listenerUrl, project: 'grp/proj', token: 'glpat-probe' }, token);
  const trelloProbe = (token: string) => post('trello', { trello_board_id: TRELLO_BOARD, token: 'probe', list_ids: [TRELLO_BOARD] }, token);

  beforeAll(async () => {
    // The listener is on loopback: each import's own allow-list opens it, as for a self-hosted Gitlab.
    server = await createTestServer({ config: { outbound: { features: { gitlabImport: { allowedHosts: ['127.0.0.1'] }, trelloImport: { allowedHosts: ['127.0.0.1'] } } } } });
    t = await teamWithRoles(server.ctx);
    for (const record of [b, target]) {
      const res = await api(server.app, 'PUT', `/api/${t.teamId}/folders/${record.id}`, { token: t.owner.token, body: record });
      expect(res.statusCode, res.body).toBe(200);
    }
    // Answers like a service refusing the token: the import answers 422, and the probe counts.
    listener = createServer((req, res) => {
      hits.push(req.url!);
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: '401 Unauthorized' }));
    });
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', () => r()));
    listenerUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
    process.env.TRELLO_API_KEY = 'fake-trello-key';
    process.env.TRELLO_API_URL = listenerUrl;
  });
  afterAll(async () => {
    delete process.env.TRELLO_API_KEY;
    delete process.env.TRELLO_API_URL;
    await new Promise((r) => listener?.close(r));
    await server?.close();
  });

  it('refuses the start past the limit with 429 before any fetch; another user is not affected', async () => {
    const limit = API_IMPORT_START_RULE.max;
    expect(limit).toBe(10);
    // Gitlab and Trello starts share one counter: half each.
    for (let i = 0; i < limit; i++) {
      const before = hits.length;
      const res = i % 2 ? await trelloProbe(t.owner.token) : await gitlabProbe(t.owner.token);
      expect(res.statusCode, res.body).toBe(422);
      expect(hits.length, 'the start fetched the chosen address').toBeGreaterThan(before);
    }

    const before = hits.length;
    const refused = await gitlabProbe(t.owner.token);
    expect(refused.statusCode, refused.body).toBe(429);
    expect(refused.json()).toMatchObject({ type: 'rate_limited' });
    expect(refused.body).toContain('Too many attempts. Please try again in');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const refusedTrello = await trelloProbe(t.owner.token);
    expect(refusedTrello.statusCode, refusedTrello.body).toBe(429);
    expect(hits.length, 'no request reached the listener past the limit').toBe(before);

    // A file import fetches nothing and is not counted.
    const file = await post('gitlab', { file_name: 'issues.json', content: JSON.stringify([{ id: 1, iid: 1, title: 'From a file', state: 'opened' }]) }, t.owner.token);
    expect(file.statusCode, file.body).toBe(202);

    // Another user has their own count.
    const other = await gitlabProbe(t.admin.token);
    expect(other.statusCode, other.body).toBe(422);
    expect(hits.length).toBe(before + 1);

    // An hour later the owner may start again.
    server.advance(API_IMPORT_START_RULE.windowMs + 1000);
    const later = await gitlabProbe(t.owner.token);
    expect(later.statusCode, later.body).toBe(422);
    expect(hits.length).toBe(before + 2);
  }, 120_000);

  it('throttles the Trello listings (boards, a board’s lists) per user on their own counter, before any fetch', async () => {
    const listBoards = (token: string) => api(server.app, 'POST', `/api/${t.teamId}/imports/trello/boards`, { token, body: { token: 'probe' } });
    const listLists = (token: string) => api(server.app, 'POST', `/api/${t.teamId}/imports/trello/boards/${TRELLO_BOARD}`, { token, body: { token: 'probe' } });
    const limit = TRELLO_LISTING_RULE.max;
    expect(limit).toBe(30);
    // Both listings share one counter: half each. The full member's import starts are untouched.
    for (let i = 0; i < limit; i++) {
      const before = hits.length;
      const res = i % 2 ? await listLists(t.full.token) : await listBoards(t.full.token);
      expect(res.statusCode, res.body).toBe(422);
      expect(hits.length, 'the listing fetched from Trello').toBe(before + 1);
    }
    const before = hits.length;
    for (const res of [await listBoards(t.full.token), await listLists(t.full.token)]) {
      expect(res.statusCode, res.body).toBe(429);
      expect(res.json()).toMatchObject({ type: 'rate_limited' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(hits.length, 'no request reached Trello past the limit').toBe(before);
    // The listings are not import starts: the member may still start one (the stand-in refuses its token).
    const start = await trelloProbe(t.full.token);
    expect(start.statusCode, start.body).toBe(422);
    expect(hits.length).toBe(before + 1);
    // Another user keeps their own count; an outsider is refused before any slot or fetch.
    expect((await listBoards(t.restricted.token)).statusCode).toBe(422);
    expect(hits.length).toBe(before + 2);
    const outsider = await listBoards(t.stranger.token);
    expect([403, 404]).toContain(outsider.statusCode);
    expect((await api(server.app, 'POST', `/api/${t.teamId}/imports/trello/boards`, { body: { token: 'probe' } })).statusCode).toBe(401);
    expect(hits.length).toBe(before + 2);
    // An hour later the member may list again.
    server.advance(TRELLO_LISTING_RULE.windowMs + 1000);
    expect((await listBoards(t.full.token)).statusCode).toBe(422);
    expect(hits.length).toBe(before + 3);
  }, 120_000);
});
