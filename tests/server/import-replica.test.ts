import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestServer, type TestServer } from '../helpers/test-server';
import { board, folder, teamWithRoles, type TeamFixture } from './sync-fixtures';
import { boardJobTuning } from '../../server/board-jobs/runner';
import { csvImportTuning } from '../../server/board-jobs/csv-import';
import type { PassLoop } from '../../server/jobs/pass-loop';

/**
 * Issue #31 part 3: the import's bulk writes (COPY on PostgreSQL, decision 0362; multi-row
 * statements on PGlite) keep the change log exact. A replica that pulls GET /changes of the board
 * between every step of an import ends with exactly the records the database holds: every imported
 * item and value, each as stored. A replica watching an import that is cancelled mid-way ends
 * with none of its records (the cleanup's tombstones reach it). Runs on both databases.
 */

describe('an import seen by a replica that was open during it', () => {
  let server: TestServer;
  let t: TeamFixture;
  const b = board({ name: 'Replica import' });
  const target = folder(b.id, { name: 'Inbox' });
  const saved = { postgresBatch: csvImportTuning.postgresBatch, sliceMs: boardJobTuning.sliceMs };

  const pass = () => (server.ctx.jobs as PassLoop).runOnce();
  const jobOf = async (id: string) => {
    const res = await api(server.app, 'GET', `/api/me/board-jobs/${id}`, { token: t.owner.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { state: string; done: number; finished_at: string | null };
  };

  /** A replica of the board: the records by collection and id, kept by GET /changes from its cursor. */
  function replica(cursor: number) {
    const held = new Map<string, Record<string, unknown>>();
    return {
      held,
      async pull() {
        for (;;) {
          const res = await api(server.app, 'GET', `/api/${t.teamId}/changes?after=${cursor}&board_id=${b.id}`, { token: t.owner.token });
          expect(res.statusCode, res.body).toBe(200);
          const page = res.json() as { data: { collection: string; id: string; op: string; record: Record<string, unknown> | null }[]; cursor: number; has_more: boolean };
          for (const change of page.data) {
            const key = `${change.collection}:${change.id}`;
            if (change.op === 'saved' && change.record) held.set(key, change.record);
            else held.delete(key);
          }
          cursor = page.cursor;
          if (!page.has_more) return;
        }
      },
      /** What it holds of one job (ids start with the job id), by key. */
      ofJob(jobId: string) {
        return new Map([...held].filter(([key]) => key.split(':')[1]!.startsWith(jobId)));
      },
    };
  }
  const startCursor = async () => {
    let after = 0;
    for (;;) {
      const page = (await api(server.app, 'GET', `/api/${t.teamId}/changes?after=${after}&board_id=${b.id}`, { token: t.owner.token })).json() as { cursor: number; has_more: boolean };
      after = page.cursor;
      if (!page.has_more) return after;
    }
  };
  const stored = async (jobId: string) =>
    new Map(
      (await server.ctx.db.selectFrom('records').select(['collection', 'id', 'data']).where('team_id', '=', t.teamId).where('board_id', '=', b.id).where('id', 'like', `${jobId}%`).where('deleted_at', 'is', null).execute()).map(
        (r) => [`${r.collection}:${r.id}`, r.data as Record<string, unknown>],
      ),
    );
  const csvOf = (rows: number) => ['Name,Score,Team,Note', ...Array.from({ length: rows }, (_, i) => `Row ${i + 1},${i * 3},${['Red', 'Blue', 'Green'][i % 3]},"a note\twith tab, comma and \\ backslash ${i}"`)].join('\n');
  const columns = (suffix: string) => [{ to: 'name' }, { to: 'new', name: `Score ${suffix}`, kind: 'number' }, { to: 'new', name: `Team ${suffix}`, kind: 'label' }, { to: 'new', name: `Note ${suffix}`, kind: 'text' }];
  const start = async (rows: number, suffix: string) => {
    const res = await api(server.app, 'POST', `/api/${t.teamId}/boards/${b.id}/imports/csv`, { token: t.owner.token, body: { folder_id: target.id, board_id: b.id, file_name: 'rows.csv', csv: csvOf(rows), delimiter: ',', header: true, columns: columns(suffix) } });
    expect(res.statusCode, res.body).toBe(202);
    return res.json().data.id as string;
  };

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
    for (const [route, record] of [['folders', b], ['folders', target]] as const) {
      const res = await api(server.app, 'PUT', `/api/${t.teamId}/${route}/${record.id}`, { token: t.owner.token, body: record });
      expect(res.statusCode, res.body).toBe(200);
    }
    await server.ctx.jobs.drain();
    // Several batches on either database: one step each, a few hundred rows a batch on PostgreSQL.
    boardJobTuning.sliceMs = 0;
    csvImportTuning.postgresBatch = 300;
  }, 120_000);
  afterAll(async () => {
    boardJobTuning.sliceMs = saved.sliceMs;
    csvImportTuning.postgresBatch = saved.postgresBatch;
    await server?.close();
  });

  it('ends with exactly the imported records, each as stored', async () => {
    const rows = 1200;
    const view = replica(await startCursor());
    const id = await start(rows, 'a');
    let pulls = 0;
    let seenMidway = false;
    for (let i = 0; i < 10_000; i++) {
      await pass();
      await view.pull();
      pulls++;
      const job = await jobOf(id);
      const held = view.ofJob(id).size;
      if (held > 0 && job.done < rows) seenMidway = true;
      if (job.finished_at) break;
    }
    expect((await jobOf(id)).state).toBe('done');
    await view.pull();
    const expected = await stored(id);
    // 1,200 items, 3 attributes and 3 values an item (the first row's score 0 is a value too).
    expect([...expected.keys()].filter((k) => k.startsWith('item:'))).toHaveLength(rows);
    expect([...expected.keys()].filter((k) => k.startsWith('value:'))).toHaveLength(rows * 3);
    expect(seenMidway, `the replica saw the import under way (${pulls} pulls)`).toBe(true);
    const held = view.ofJob(id);
    expect(held.size).toBe(expected.size);
    for (const [key, data] of expected) expect(held.get(key), key).toEqual(data);
    // The text went through COPY's escaping unchanged.
    const note = [...held.values()].find((r) => typeof r.value === 'string' && String(r.value).startsWith('a note'));
    expect(note?.value).toMatch(/^a note\twith tab, comma and \\ backslash \d+$/);
  }, 300_000);

  it('a cancelled import leaves nothing behind, on the server and in the replica', async () => {
    const rows = 1500;
    const view = replica(await startCursor());
    const id = await start(rows, 'b');
    // Until some rows are written (and seen by the replica), then cancel.
    for (let i = 0; i < 10_000; i++) {
      await pass();
      await view.pull();
      if (view.ofJob(id).size > 0 && (await jobOf(id)).done > 0) break;
    }
    expect(view.ofJob(id).size).toBeGreaterThan(0);
    const cancel = await api(server.app, 'POST', `/api/me/board-jobs/${id}/cancel`, { token: t.owner.token });
    expect(cancel.statusCode, cancel.body).toBe(200);
    for (let i = 0; i < 10_000 && !(await jobOf(id)).finished_at; i++) {
      await server.ctx.jobs.drain();
      server.advance(5_000);
    }
    expect((await jobOf(id)).state).toBe('cancelled');
    await view.pull();
    expect((await server.ctx.db.selectFrom('records').select('id').where('id', 'like', `${id}%`).execute()).length).toBe(0);
    expect(view.ofJob(id).size).toBe(0);
  }, 300_000);
});
