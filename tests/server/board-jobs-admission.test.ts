import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestServer, type TestServer } from '../helpers/test-server';
import { board, teamWithRoles, type TeamFixture } from './sync-fixtures';
import { boardJobTuning } from '../../server/board-jobs/runner';
import { loadConfig } from '../../server/config';
import type { BoardJob } from '../../schema/board-jobs';
import type { PassLoop } from '../../server/jobs/pass-loop';

/**
 * Admission of board jobs (issue #31 part 4, decision 0371): the cap is the operator's
 * BOARD_JOBS_MAX_RUNNING, and a job kept waiting starts as soon as a running one ends: the end
 * wakes it (no clock moves in this test, so the slow safety poll never comes due).
 */

describe('board jobs: admission', () => {
  let server: TestServer;
  const teams: { t: TeamFixture; boardId: string }[] = [];

  beforeAll(async () => {
    // One job at a time on this instance, as an operator may set it.
    server = await createTestServer({ config: { boardJobsMaxRunning: 1 } });
    for (let i = 0; i < 2; i++) {
      const t = await teamWithRoles(server.ctx);
      const b = board({ name: `Imports ${i}` });
      const res = await api(server.app, 'PUT', `/api/${t.teamId}/folders/${b.id}`, { token: t.owner.token, body: b });
      expect(res.statusCode, res.body).toBe(200);
      teams.push({ t, boardId: b.id });
    }
    await server.ctx.jobs.drain();
  });
  afterAll(async () => {
    boardJobTuning.sliceMs = 2000;
    await server?.close();
  });

  const jobOf = async (t: TeamFixture, id: string): Promise<BoardJob> => (await api(server.app, 'GET', `/api/me/board-jobs/${id}`, { token: t.owner.token })).json().data;

  it('reads BOARD_JOBS_MAX_RUNNING: 2 unless set, a whole number from 1 to 64', () => {
    expect(loadConfig({ NODE_ENV: 'test', PUSHER_APP_SECRET: 'x'.repeat(64) }).boardJobsMaxRunning).toBe(2);
    expect(loadConfig({ NODE_ENV: 'test', PUSHER_APP_SECRET: 'x'.repeat(64), BOARD_JOBS_MAX_RUNNING: '5' }).boardJobsMaxRunning).toBe(5);
    for (const bad of ['0', '65', '1.5', 'many']) expect(() => loadConfig({ NODE_ENV: 'test', PUSHER_APP_SECRET: 'x'.repeat(64), BOARD_JOBS_MAX_RUNNING: bad })).toThrow(/BOARD_JOBS_MAX_RUNNING/);
  });

  it('keeps a second workspace’s import waiting under a cap of 1, and starts it when the first ends, without waiting for a poll', async () => {
    boardJobTuning.sliceMs = 0; // one batch per step
    const ids: string[] = [];
    for (const { t, boardId } of teams) {
      const csv = ['Name', ...Array.from({ length: 120 }, (_, i) => `Row ${i}`)].join('\n');
      const res = await api(server.app, 'POST', `/api/${t.teamId}/boards/${boardId}/imports/csv`, { token: t.owner.token, body: { board_id: boardId, folder_id: boardId, file_name: 'rows.csv', csv, delimiter: ',', header: true, columns: [{ to: 'name' }] } });
      expect(res.statusCode, res.body).toBe(202);
      ids.push(res.json().data.id);
    }
    await (server.ctx.jobs as PassLoop).runOnce();
    const first = await jobOf(teams[0]!.t, ids[0]!);
    const second = await jobOf(teams[1]!.t, ids[1]!);
    // Two workspaces, so only the instance's cap keeps one of them waiting.
    expect([first.state, second.state].sort()).toEqual(['queued', 'running']);
    const waiting = first.state === 'queued' ? first : second;
    expect(waiting).toMatchObject({ phase: 'waiting', place: 1 });
    // The clock stands still: the waiting one can only start because the other's end woke it.
    await server.ctx.jobs.drain();
    const ended = [await jobOf(teams[0]!.t, ids[0]!), await jobOf(teams[1]!.t, ids[1]!)];
    expect(ended.map((j) => [j.state, j.result?.items])).toEqual([
      ['done', 120],
      ['done', 120],
    ]);
    boardJobTuning.sliceMs = 2000;
  }, 180_000);
});
