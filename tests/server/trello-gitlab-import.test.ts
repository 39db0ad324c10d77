import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestServer, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { addMember, board, folder, teamWithRoles, type TeamFixture } from './sync-fixtures';
import { boardJobTuning } from '../../server/board-jobs/runner';
import { planBatch } from '../../server/imports/plan-job';
import type { BoardJob } from '../../schema/board-jobs';
import type { PassLoop } from '../../server/jobs/pass-loop';

/**
 * Trello and Gitlab imports against the real server and database (decision 0220): the committed
 * export fixtures through the file path, and the API paths against local fakes answering Trello's
 * and Gitlab's documented responses (Trello: key and token in the query; Gitlab: PRIVATE-TOKEN
 * and X-Next-Page pagination). Cancel leaves nothing, folders and comments included.
 */

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');
const trelloExport = JSON.parse(fixture('trello/board.json'));
const L = (n: number) => `65a1f0c2e4b0a1b2c3d4e70${n}`;
const TRELLO_KEY = 'fake-trello-key';
const TRELLO_TOKEN = 'fake-trello-token';
const GITLAB_TOKEN = 'glpat-fake-token';

type Seen = { path: string; query: URLSearchParams; headers: IncomingMessage['headers'] };

/** A local stand-in for api.trello.com and a Gitlab instance, answering their documented shapes. */
function fakeApis(seen: Seen[]): Server {
  const issues = JSON.parse(fixture('gitlab/issues.json')) as unknown[];
  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  return createServer((req, res) => {
    const url = new URL(req.url!, 'http://fake');
    seen.push({ path: url.pathname, query: url.searchParams, headers: req.headers });
    if (url.pathname.startsWith('/1/')) {
      if (url.searchParams.get('key') !== TRELLO_KEY || url.searchParams.get('token') !== TRELLO_TOKEN) return json(res, 401, 'invalid token');
      if (url.pathname === '/1/members/me/boards') return json(res, 200, JSON.parse(fixture('trello/member-boards.json')));
      if (url.pathname === `/1/boards/${trelloExport.id}`) return json(res, 200, trelloExport);
      return json(res, 404, 'The requested resource was not found.');
    }
    if (url.pathname === '/api/v4/projects/acme%2Fshop/issues' || url.pathname === '/api/v4/projects/acme/shop/issues') {
      if (req.headers['private-token'] !== GITLAB_TOKEN) return json(res, 401, { message: '401 Unauthorized' });
      // Two issues a page, so the import has to follow X-Next-Page.
      const page = Number(url.searchParams.get('page') ?? 1);
      const pages = Math.ceil(issues.length / 2);
      return json(res, 200, issues.slice((page - 1) * 2, page * 2), { 'x-page': String(page), 'x-per-page': '2', 'x-total': String(issues.length), 'x-total-pages': String(pages), 'x-next-page': page < pages ? String(page + 1) : '', 'x-prev-page': page > 1 ? String(page - 1) : '' });
    }
    if (url.pathname.startsWith('/api/v4/projects/')) return json(res, 404, { message: '404 Project Not Found' });
    json(res, 404, {});
  });
}

describe('Trello and Gitlab imports', () => {
  let server: TestServer;
  let t: TeamFixture;
  let fake: Server;
  let fakeUrl: string;
  let ada: Awaited<ReturnType<typeof createUserWithToken>>;
  const seen: Seen[] = [];
  const b = board({ name: 'Imports' });
  const target = folder(b.id, { name: 'Inbox' });

  const save = async (route: string, body: Record<string, unknown>) => {
    const res = await api(server.app, 'PUT', `/api/${t.teamId}/${route}/${encodeURIComponent(String(body.id))}`, { token: t.owner.token, body });
    expect(res.statusCode, res.body).toBe(200);
  };
  const jobOf = async (id: string): Promise<BoardJob> => (await api(server.app, 'GET', `/api/me/board-jobs/${id}`, { token: t.owner.token })).json().data;
  async function untilEnded(id: string): Promise<BoardJob> {
    const deadline = Date.now() + 90_000;
    for (;;) {
      await server.ctx.jobs.drain();
      const job = await jobOf(id);
      if (job.finished_at || Date.now() > deadline) return job;
      server.advance(5_000);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  const recordsOf = async (jobId: string, collection?: string) => {
    let q = server.ctx.db.selectFrom('records').select(['collection', 'id', 'data']).where('team_id', '=', t.teamId).where('id', 'like', `${jobId}%`);
    if (collection) q = q.where('collection', '=', collection);
    return (await q.orderBy('id').execute()).map((r) => ({ collection: r.collection, id: r.id, data: r.data as Record<string, any> }));
  };
  const post = (kind: 'trello' | 'gitlab', body: Record<string, unknown>, token = t.owner.token) => api(server.app, 'POST', `/api/${t.teamId}/boards/${b.id}/imports/${kind}`, { token, body: { folder_id: target.id, ...body } });
  /** Attribute name → its value on the item named `item`. */
  async function valuesOf(jobId: string, item: string): Promise<Record<string, unknown>> {
    const items = await recordsOf(jobId, 'item');
    const it = items.find((i) => i.data.name === item);
    expect(it, `item ${item}`).toBeTruthy();
    const attributes = new Map((await server.ctx.db.selectFrom('records').select(['id', 'data']).where('collection', '=', 'attribute').where('board_id', '=', b.id).execute()).map((a) => [a.id, a.data as { name: string; settings: { options?: { id: string; name: string }[] } }]));
    const values = (await recordsOf(jobId, 'value')).filter((v) => v.data.item_id === it!.id);
    return Object.fromEntries(
      values.map((v) => {
        const a = attributes.get(v.data.attribute_id)!;
        const name = (id: unknown) => a.settings.options?.find((o) => o.id === id)?.name ?? id;
        return [a.name, a.settings.options ? (Array.isArray(v.data.value) ? v.data.value.map(name) : name(v.data.value)) : v.data.value];
      }),
    );
  }

  beforeAll(async () => {
    // The fake Trello and Gitlab listen on loopback: each import's own allow-list opens it (decision 0355).
    server = await createTestServer({ config: { outbound: { features: { gitlabImport: { allowedHosts: ['127.0.0.1'] }, trelloImport: { allowedHosts: ['127.0.0.1'] } } } } });
    t = await teamWithRoles(server.ctx);
    ada = await createUserWithToken(server.ctx, { email: 'adalovelace@example.test', name: 'Ada Lovelace' });
    await addMember(server.ctx, t.teamId, ada.user.id, 'full-member');
    await save('folders', b);
    await save('folders', target);
    fake = fakeApis(seen);
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', () => r()));
    fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    delete process.env.TRELLO_API_KEY;
    delete process.env.TRELLO_API_URL;
    boardJobTuning.sliceMs = 2000;
    planBatch.items = 500;
    await new Promise((r) => fake?.close(r));
    await server?.close();
  });

  it('imports the Trello export: lists as folders, cards with labels, due dates, checklists, members, attachments and comments', async () => {
    const res = await post('trello', { file_name: 'website.json', board: trelloExport, lists_as: 'folders', list_ids: [L(1), L(2), L(3)] });
    expect(res.statusCode, res.body).toBe(202);
    const started: BoardJob = res.json().data;
    expect(started).toMatchObject({ kind: 'import.trello', total: 4, title: 'website.json' });
    const job = await untilEnded(started.id);
    expect(job.state, job.error ?? '').toBe('done');
    expect(job.result).toMatchObject({ items: 4, comments: 2, folders: 3, folder_id: target.id });
    expect(job.errors).toEqual([{ message: '“Old banner (archived)”: archived card left out' }]);

    const folders = await recordsOf(started.id, 'folder');
    expect(folders.map((f) => [f.data.name, f.data.parent_id])).toEqual([['To do', target.id], ['Doing', target.id], ['Done', target.id]]);
    const items = await recordsOf(started.id, 'item');
    const folderOf = (name: string) => folders.find((f) => f.id === items.find((i) => i.data.name === name)!.data.folder_id)?.data.name;
    expect(folderOf('Write the copy for the home page')).toBe('To do');
    expect(folderOf('New logo')).toBe('Doing');
    expect(await valuesOf(started.id, 'Write the copy for the home page')).toEqual({
      Labels: ['Design'],
      Due: '2026-12-01T15:00',
      Members: [ada.user.id],
      Description: 'Short and friendly.\n\nSee the brief.',
      Checklists: 'Sections\n[x] Hero\n[ ] Pricing',
      Attachments: 'brief.pdf: https://trello.com/1/cards/65a1f0c2e4b0a1b2c3d4e801/attachments/65a1f0c2e4b0a1b2c3d4eb01/download/brief.pdf',
      'Trello card': { url: 'https://trello.com/c/Qw1Er2Ty', text: 'Write the copy for the home page' },
    });
    expect(await valuesOf(started.id, 'New logo')).toMatchObject({ Labels: ['Design', 'Ready'], 'Due complete': true });
    const comments = await recordsOf(started.id, 'comment');
    expect(comments.map((c) => [c.data.created_by, c.data.text.html])).toEqual([
      [ada.user.id, '<p><em>2026-11-20</em></p><p>First draft is in the brief.<br>Please read it.</p>'],
      [t.owner.user.id, '<p><em>Grace Hopper, 2026-11-21</em></p><p>Looks good &lt;b&gt;to me&lt;/b&gt;</p>'],
    ]);
    // The app's sync feed shows them like any other records.
    const listed = await api(server.app, 'GET', `/api/${t.teamId}/comments?board_id=${b.id}`, { token: t.owner.token });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().data.length).toBeGreaterThanOrEqual(2);
  }, 120_000);

  it('imports Trello lists as label values into the chosen folder; a second import names its attributes apart', async () => {
    const res = await post('trello', { board: trelloExport, lists_as: 'labels', list_ids: [L(3), L(4)], include_archived: true });
    expect(res.statusCode, res.body).toBe(202);
    const job = await untilEnded(res.json().data.id);
    expect(job.state, job.error ?? '').toBe('done');
    expect(await recordsOf(job.id, 'folder')).toEqual([]);
    const items = await recordsOf(job.id, 'item');
    expect(items.map((i) => [i.data.name, i.data.folder_id])).toEqual([['Launch checklist', target.id], ['Old banner (archived)', target.id], ['Dark mode?', target.id]]);
    expect(await valuesOf(job.id, 'Dark mode?')).toMatchObject({ List: 'Old ideas' });
    const names = (await recordsOf(job.id, 'attribute')).map((a) => a.data.name);
    expect(names).toContain('Labels (Trello)');
  }, 120_000);

  it('refuses no list, a file that is not a Trello export, and a caller without the right', async () => {
    const none = await post('trello', { board: trelloExport, list_ids: [] });
    expect(none.statusCode).toBe(422);
    expect(none.body).toContain('choose at least one list to import');
    const unknown = await post('trello', { board: trelloExport, list_ids: ['nope'] });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.body).toContain('choose at least one list to import');
    const notTrello = await post('trello', { board: { hello: 'world' }, list_ids: [L(1)] });
    expect(notTrello.statusCode).toBe(422);
    expect(notTrello.body).toContain('not a Trello board export');
    expect((await post('trello', { board: trelloExport, list_ids: [L(1)] }, t.stranger.token)).statusCode).toBe(403);
    expect((await post('trello', { board: trelloExport, list_ids: [L(1)] }, t.restricted.token)).statusCode).toBe(403);
    const elsewhere = await post('trello', { folder_id: 'no-such-folder', board: trelloExport, list_ids: [L(1)] });
    expect(elsewhere.statusCode).toBe(422);
    expect(elsewhere.body).toContain('select one folder');
  });

  it('takes the OAuth-token path through Trello’s API when a key is configured', async () => {
    const off = await api(server.app, 'GET', '/api/imports/trello/config', { token: t.owner.token });
    expect(off.json().data).toEqual({ enabled: false, authorize_url: null });
    expect((await api(server.app, 'POST', `/api/${t.teamId}/imports/trello/boards`, { token: t.owner.token, body: { token: TRELLO_TOKEN } })).statusCode).toBe(409);

    process.env.TRELLO_API_KEY = TRELLO_KEY;
    process.env.TRELLO_API_URL = fakeUrl;
    const config = (await api(server.app, 'GET', '/api/imports/trello/config', { token: t.owner.token })).json().data;
    expect(config.enabled).toBe(true);
    expect(config.authorize_url).toContain('https://trello.com/1/authorize?');
    expect(new URL(config.authorize_url).searchParams.get('key')).toBe(TRELLO_KEY);
    expect(new URL(config.authorize_url).searchParams.get('response_type')).toBe('token');

    const boards = await api(server.app, 'POST', `/api/${t.teamId}/imports/trello/boards`, { token: t.owner.token, body: { token: TRELLO_TOKEN } });
    expect(boards.statusCode, boards.body).toBe(200);
    expect(boards.json().data.map((x: { name: string; closed: boolean }) => [x.name, x.closed])).toEqual([['Website relaunch', false], ['2025 planning', true]]);
    const wrong = await api(server.app, 'POST', `/api/${t.teamId}/imports/trello/boards`, { token: t.owner.token, body: { token: 'expired' } });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.body).toContain('Connect to Trello again');
    expect((await api(server.app, 'POST', `/api/${t.teamId}/imports/trello/boards`, { token: t.stranger.token, body: { token: TRELLO_TOKEN } })).statusCode).toBe(403);

    const lists = await api(server.app, 'POST', `/api/${t.teamId}/imports/trello/boards/${trelloExport.id}`, { token: t.owner.token, body: { token: TRELLO_TOKEN } });
    expect(lists.statusCode, lists.body).toBe(200);
    expect(lists.json().data.lists.map((l: { name: string; cards: number }) => `${l.name}:${l.cards}`)).toEqual(['To do:2', 'Doing:1', 'Done:1', 'Old ideas:1']);
    const missing = await api(server.app, 'POST', `/api/${t.teamId}/imports/trello/boards/nope`, { token: t.owner.token, body: { token: TRELLO_TOKEN } });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('Trello data loading error');

    const boardCall = seen.filter((s) => s.path === `/1/boards/${trelloExport.id}`).at(-1)!;
    expect(boardCall.query.get('cards')).toBe('all');
    expect(boardCall.query.get('actions')).toBe('commentCard');
    expect(boardCall.query.get('checklists')).toBe('all');

    const res = await post('trello', { trello_board_id: trelloExport.id, token: TRELLO_TOKEN, lists_as: 'folders', list_ids: [L(2)] });
    expect(res.statusCode, res.body).toBe(202);
    const job = await untilEnded(res.json().data.id);
    expect(job.state, job.error ?? '').toBe('done');
    expect(job.title).toBe('Website relaunch');
    expect((await recordsOf(job.id, 'item')).map((i) => i.data.name)).toEqual(['New logo']);
  }, 120_000);

  it('imports Gitlab issues from the CSV export and the issues JSON', async () => {
    const res = await post('gitlab', { file_name: 'issues.csv', content: fixture('gitlab/issues.csv') });
    expect(res.statusCode, res.body).toBe(202);
    const job = await untilEnded(res.json().data.id);
    expect(job.state, job.error ?? '').toBe('done');
    expect(job).toMatchObject({ kind: 'import.gitlab', title: 'issues.csv', result: { items: 3 } });
    expect(await valuesOf(job.id, 'Login page shows a blank screen on Safari')).toEqual({
      State: 'Closed',
      // The board has Labels and Description from the Trello imports already: these are named apart.
      'Labels (Gitlab)': ['bug', 'frontend'],
      Milestone: 'v2.0',
      Assignees: [ada.user.id],
      'Due date': '2026-10-04',
      'Description (Gitlab)': 'Steps:\n1. Open /login in Safari 17\n2. Nothing renders',
      'Gitlab issue': { url: 'https://gitlab.example.com/acme/shop/-/issues/1', text: '#1' },
    });
    expect(await valuesOf(job.id, 'Add a dark theme')).toMatchObject({ State: 'Open', 'Gitlab assignees': 'Grace Hopper, Linus Example' });

    const fromJson = await post('gitlab', { file_name: 'issues.json', content: fixture('gitlab/issues.json') });
    expect(fromJson.statusCode, fromJson.body).toBe(202);
    expect((await untilEnded(fromJson.json().data.id)).result).toMatchObject({ items: 3 });

    const notGitlab = await post('gitlab', { file_name: 'x.csv', content: 'Name,Age\nA,1\n' });
    expect(notGitlab.statusCode).toBe(422);
    expect(notGitlab.body).toContain('not a Gitlab issues export');
  }, 120_000);

  it('reads Gitlab issues through its REST API page by page with the token', async () => {
    const res = await post('gitlab', { url: fakeUrl, project: 'acme/shop', token: GITLAB_TOKEN });
    expect(res.statusCode, res.body).toBe(202);
    const job = await untilEnded(res.json().data.id);
    expect(job.state, job.error ?? '').toBe('done');
    expect(job.title).toBe('acme/shop');
    expect((await recordsOf(job.id, 'item')).map((i) => i.data.name).sort()).toEqual(['Add a dark theme', 'Checkout total ignores the discount code', 'Login page shows a blank screen on Safari']);
    const calls = seen.filter((s) => s.path.startsWith('/api/v4/'));
    expect(calls.map((c) => c.query.get('page'))).toEqual(['1', '2']);
    expect(calls[0]!.query.get('state')).toBe('all');

    const badToken = await post('gitlab', { url: fakeUrl, project: 'acme/shop', token: 'wrong' });
    expect(badToken.statusCode).toBe(422);
    expect(badToken.body).toContain('Gitlab did not accept the token.');
    const noProject = await post('gitlab', { url: fakeUrl, project: 'acme/nothing', token: GITLAB_TOKEN });
    expect(noProject.statusCode).toBe(422);
    expect(noProject.body).toContain('Gitlab has no project at that path');
    const metadata = await post('gitlab', { url: 'http://169.254.169.254', project: 'acme/shop', token: GITLAB_TOKEN });
    expect(metadata.statusCode).toBe(422);
    const neither = await post('gitlab', { url: fakeUrl });
    expect(neither.statusCode).toBe(422);
  }, 120_000);

  it('a cancel removes everything the import wrote: folders, attributes, items, values and comments', async () => {
    boardJobTuning.sliceMs = 0;
    planBatch.items = 1;
    const res = await post('trello', { board: trelloExport, lists_as: 'folders', list_ids: [L(1), L(2), L(3)] });
    expect(res.statusCode, res.body).toBe(202);
    const id: string = res.json().data.id;
    const pass = () => (server.ctx.jobs as PassLoop).runOnce();
    for (let i = 0; i < 3; i++) await pass();
    const written = await recordsOf(id);
    expect(new Set(written.map((r) => r.collection))).toEqual(new Set(['folder', 'attribute', 'item', 'value', 'comment']));
    expect((await jobOf(id)).done).toBeLessThan(4);
    expect((await api(server.app, 'POST', `/api/me/board-jobs/${id}/cancel`, { token: t.owner.token })).statusCode).toBe(200);
    const job = await untilEnded(id);
    expect(job.state).toBe('cancelled');
    expect(await recordsOf(id)).toEqual([]);
    boardJobTuning.sliceMs = 2000;
    planBatch.items = 500;
  }, 120_000);

  it('a failed import says why and leaves no half board', async () => {
    boardJobTuning.sliceMs = 0;
    planBatch.items = 1;
    const doomed = folder(b.id, { name: 'Doomed' });
    await save('folders', doomed);
    const res = await post('trello', { folder_id: doomed.id, board: trelloExport, lists_as: 'folders', list_ids: [L(1), L(2)] });
    expect(res.statusCode, res.body).toBe(202);
    const id: string = res.json().data.id;
    const pass = () => (server.ctx.jobs as PassLoop).runOnce();
    await pass(); // folders and attributes
    await pass(); // the first card
    expect((await recordsOf(id, 'item')).length).toBeGreaterThan(0);
    // The folder goes away under the import: the next steps fail, and the job with them.
    await server.ctx.db.deleteFrom('records').where('collection', '=', 'folder').where('id', '=', doomed.id).execute();
    const job = await untilEnded(id);
    expect(job.state).toBe('failed');
    expect(job.error).toBeTruthy();
    expect(await recordsOf(id)).toEqual([]);
    boardJobTuning.sliceMs = 2000;
    planBatch.items = 500;
  }, 120_000);
});
