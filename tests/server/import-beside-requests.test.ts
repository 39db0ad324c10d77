import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../helpers/test-server';
import { board, folder, teamWithRoles, type TeamFixture } from './sync-fixtures';

/**
 * Security review N9 (issue #26, issue #31), its steps over real HTTP: a user starts a CSV import
 * (POST /api/{team}/boards/{b}/imports/csv, 202) and, while the job runs, a user of another
 * workspace sends GET /api/me again and again. Before the fix the embedded database answered every
 * statement of the job without I/O, the job ran as one unbroken chain of promise callbacks and the
 * server's socket was not read until the import ended: the second user got no answer at all while
 * it ran. The fix (server/db/pglite-pool.ts: a statement lets the event loop turn when it has not
 * for a while) must let that user be answered during the import. The test counts answers that came
 * while the job had not ended (a state, not a time), so a slow machine makes it slower, not red.
 * On PostgreSQL the database is real I/O and the loop turns anyway; the test holds there too.
 */

const ROWS = 2_000;

describe('a CSV import does not stall the server (N9)', () => {
  let server: TestServer;
  let base: string;
  let t: TeamFixture;
  const b = board({ name: 'Big import' });
  const target = folder(b.id, { name: 'Inbox' });

  const http = async (method: 'GET' | 'POST' | 'PUT', path: string, token: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: await res.text() };
  };

  beforeAll(async () => {
    server = await createTestServer();
    base = await server.listen();
    t = await teamWithRoles(server.ctx);
    for (const [route, record] of [['folders', b], ['folders', target]] as const) {
      const res = await http('PUT', `/api/${t.teamId}/${route}/${record.id}`, t.owner.token, record);
      expect(res.status, res.body).toBe(200);
    }
    await server.ctx.jobs.drain();
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it('answers another workspace’s user while the import runs', async () => {
    const csv = ['Name,Score,Team,Email,Note', ...Array.from({ length: ROWS }, (_, i) => `Row ${i + 1},${i},${['Red', 'Blue', 'Green'][i % 3]},r${i}@example.com,note ${i}`)].join('\n');
    const columns = [{ to: 'name' }, { to: 'new', name: 'Score', kind: 'number' }, { to: 'new', name: 'Team', kind: 'label' }, { to: 'new', name: 'Email', kind: 'email' }, { to: 'new', name: 'Note', kind: 'text' }];
    const started = await http('POST', `/api/${t.teamId}/boards/${b.id}/imports/csv`, t.owner.token, { folder_id: target.id, board_id: b.id, file_name: 'big.csv', csv, delimiter: ',', header: true, columns });
    expect(started.status, started.body).toBe(202);
    const jobId = JSON.parse(started.body).data.id as string;

    let ended = false;
    const answers = { during: 0, after: 0, failed: [] as string[] };
    // The second user (a stranger to the importing workspace) keeps asking who they are.
    const reader = (async () => {
      while (!ended) {
        const me = await http('GET', '/api/me', t.stranger.token);
        if (me.status !== 200) answers.failed.push(`${me.status} ${me.body.slice(0, 200)}`);
        if (ended) answers.after++;
        else answers.during++;
      }
    })();
    // The job runs in this process as in the server (tests drive the queue with drain()).
    const deadline = Date.now() + 600_000;
    let job: { state: string; finished_at: unknown } | undefined;
    while (Date.now() < deadline) {
      await server.ctx.jobs.drain();
      job = await server.ctx.db.selectFrom('board_jobs').select(['state', 'finished_at']).where('id', '=', jobId).executeTakeFirstOrThrow();
      if (job.finished_at) break;
    }
    ended = true;
    await reader;
    console.info(`N9: ${ROWS} rows imported; GET /api/me answered ${answers.during} times while the import ran, ${answers.after} after`);

    expect(job?.state, 'the import ran to its end').toBe('done');
    const rows = await server.ctx.db.selectFrom('records').select((eb) => eb.fn.countAll<string>().as('n')).where('collection', '=', 'item').where('board_id', '=', b.id).executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(ROWS);
    expect(answers.failed).toEqual([]);
    // Before the fix: 0 (the first request waited for the whole import).
    expect(answers.during, `GET /api/me answered ${answers.during} times while the import ran`).toBeGreaterThanOrEqual(3);
  }, 660_000);
});
