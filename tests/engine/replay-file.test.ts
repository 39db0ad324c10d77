import 'fake-indexeddb/auto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { PGlite } from '@electric-sql/pglite';
import { nanoid } from 'nanoid';
import { api, createTestServer } from '../helpers/test-server';
import { TEMPLATE_FILE } from '../helpers/global-setup';
import { HEAVY_TEST_TIMEOUT_MS } from '../helpers/limits';
import { waitingFor } from '../helpers/trail';
import { openDatabase } from '../../server/db/index';
import { SyncRuntime } from '../../sync-worker/api';
import { ManualClock, systemClock } from '../../sync-worker/clock';
import { latestSchema } from '../../sync-worker/db';
import type { SyncRecord } from '../../sync-worker/types';
import { parseUnsyncedExport, type UnsyncedExport } from '../../sync-worker/unsynced-export';
import { replayUnsynced } from '../../scripts/replay/run';
import { formatVerdict, type Verdict } from '../../scripts/replay/verdicts';
import { addMember, createWorld, wire, type World } from './harness';
import { faultyNetwork, mulberry32, type Fault } from './faults';

/**
 * Issue #30 part 7: "Download unsynced changes" and `npm run replay` on a file a real worker
 * session made. A member works offline (a rename that will land, one that will merge over an
 * online move, one that will conflict with an online rename, a new item, a new item in a folder
 * that does not exist, a delete, a draft) after one edit was already refused; the worker
 * (SyncRuntime, signed in, token in its meta table) exports the file. The replay then predicts
 * every verdict with GETs only (the server is not written: its change log does not move), and
 * sends the file through the seeded faulty network of the replay suite (REPLAY_FILE_SEEDS,
 * REPLAY_FILE_SEED): the same verdicts, and the server ends as they say.
 */

const SEEDS = process.env.REPLAY_FILE_SEED ? [Number(process.env.REPLAY_FILE_SEED)] : Array.from({ length: Number(process.env.REPLAY_FILE_SEEDS ?? 3) }, (_, i) => 4200 + i * 7919);

interface Scenario {
  world: World;
  member: Awaited<ReturnType<typeof addMember>>;
  file: UnsyncedExport;
  text: string;
  ids: { landed: string; merged: string; conflicted: string; created: string; badNew: string; deleted: string; drafted: string; refusedBefore: string };
}

const itemsOf = async (world: World, token: string) => (await api(world.server.app, 'GET', `/api/${world.teamId}/items?board_id=${world.boardId}`, { token })).json().data as SyncRecord[];

/** The member's offline session, through the worker's own runtime, ending in an exported file. */
async function scenario(world: World, member: Scenario['member']): Promise<Scenario> {
  const put = async (record: SyncRecord) => {
    const res = await api(world.server.app, 'PUT', `/api/${world.teamId}/items/${record.id}`, { token: world.owner.token, body: record });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as SyncRecord;
  };
  const item = (name: string) => put({ id: nanoid(), board_id: world.boardId, folder_id: world.folderId, name, row_version: 1 });
  const [a, b, c, f, g] = await Promise.all(['Landed', 'Merged', 'Conflicted', 'Deleted', 'Drafted'].map(item));

  const net = wire();
  const runtime = new SyncRuntime({ baseUrl: world.url, fetch: net.fetch, clock: systemClock, random: Math.random, newId: () => nanoid(), swUuid: 'sw-' + nanoid(6), idb: { indexedDB: new IDBFactory(), IDBKeyRange } });
  await runtime.signIn(member.tokens, member.user.id);
  await runtime.openBoard(world.teamId, world.boardId);
  // Online: an edit the server refuses (its folder does not exist) is kept in refusedEdits.
  const refusedBefore = { id: nanoid(), board_id: world.boardId, folder_id: 'no-such-folder', name: 'Refused before', row_version: 0 };
  await runtime.save('item', refusedBefore, { teamId: world.teamId });
  await runtime.flush();
  await waitingFor('the refused edit', async () => {
    while ((await runtime.notSaved()).length === 0) await new Promise((r) => setTimeout(r, 20));
  });

  // Offline: the cable is cut for real (nothing reaches the server, probes fail too).
  net.down = true;
  await runtime.reportServerReach(false);
  const local = async (id: string) => {
    const row = await runtime.current()!.db.relaxed.records.get(['item', id]);
    const { collection: _c, ...rest } = row!;
    return rest as SyncRecord;
  };
  const opts = { teamId: world.teamId };
  await runtime.save('item', { ...(await local(a.id)), name: 'Landed, renamed offline' }, opts);
  await runtime.save('item', { ...(await local(b.id)), name: 'Merged, renamed offline' }, opts);
  await runtime.save('item', { ...(await local(c.id)), name: 'Conflicted: mine' }, opts);
  const created = { id: nanoid(), board_id: world.boardId, folder_id: world.folderId, name: 'Created offline', row_version: 0 };
  await runtime.save('item', created, opts);
  const badNew = { id: nanoid(), board_id: world.boardId, folder_id: 'folder-that-never-was', name: 'In a missing folder', row_version: 0 };
  await runtime.save('item', badNew, opts);
  await runtime.delete('item', f.id, opts);
  await runtime.addDraft('item', { ...(await local(g.id)), name: 'Drafted, not saved' });

  // Meanwhile, online, the owner moves one item and renames another.
  const fields = (r: SyncRecord) => ({ id: r.id, board_id: r.board_id, folder_id: r.folder_id, name: r.name, position: r.position ?? 0, row_version: r.row_version + 1 });
  await put({ ...fields(b), position: 42 });
  await put({ ...fields(c), name: 'Conflicted: theirs' });

  const file = await runtime.exportUnsynced();
  // The token really is in the replica (the runtime keeps it in meta), and not in the file.
  const session = (await runtime.current()!.db.relaxed.meta.get('session'))?.value as { access_token?: string } | undefined;
  expect(session?.access_token).toBe(member.tokens.access_token);
  await runtime.signOut();
  const text = JSON.stringify(file);
  return { world, member, file, text, ids: { landed: a.id, merged: b.id, conflicted: c.id, created: created.id, badNew: badNew.id, deleted: f.id, drafted: g.id, refusedBefore: refusedBefore.id } };
}

function verdictOf(verdicts: Verdict[], id: string, source: Verdict['source'] = 'queue') {
  const found = verdicts.find((v) => v.id === id && v.source === source);
  expect(found, `a verdict for ${source} ${id}`).toBeDefined();
  return found!;
}

/** The verdicts the scenario must give, predicted or applied. */
function expectVerdicts(verdicts: Verdict[], ids: Scenario['ids'], applied: boolean) {
  expect(verdictOf(verdicts, ids.landed)).toMatchObject({ verdict: 'land', method: 'put' });
  expect(verdictOf(verdicts, ids.merged)).toMatchObject({ verdict: 'merge', fields: ['name'] });
  expect(verdictOf(verdicts, ids.conflicted)).toMatchObject({ verdict: 'conflict', fields: ['name'] });
  expect(verdictOf(verdicts, ids.created)).toMatchObject({ verdict: 'land' });
  expect(verdictOf(verdicts, ids.badNew)).toMatchObject({ verdict: 'refused', status: 422, refused_reason: 'validation' });
  expect(verdictOf(verdicts, ids.badNew).reason).toMatch(/folder_id/);
  expect(verdictOf(verdicts, ids.deleted)).toMatchObject({ verdict: 'land', method: 'delete' });
  expect(verdictOf(verdicts, ids.refusedBefore, 'refused')).toMatchObject({ verdict: 'refused', status: 422 });
  expect(verdictOf(verdicts, ids.drafted, 'draft')).toMatchObject({ verdict: 'unsent' });
  if (!applied) expect(verdictOf(verdicts, ids.drafted, 'draft').reason).toMatch(/would land/);
  expect(verdicts).toHaveLength(8);
}

const changeCount = async (world: World) => Number((await world.server.ctx.db.selectFrom('change_log').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

describe('replaying an exported file of unsynced changes', () => {
  const worlds: World[] = [];
  afterEach(async () => {
    for (const w of worlds.splice(0)) await w.close();
  });

  it('the file holds the queue, drafts, conflicts, refused edits and schema, and no token', async () => {
    const world = await createWorld();
    worlds.push(world);
    const member = await addMember(world, 'admin');
    const { file, text } = await scenario(world, member);
    expect(text).not.toContain(member.tokens.access_token);
    if (member.tokens.refresh_token) expect(text).not.toContain(member.tokens.refresh_token);
    expect(text).not.toContain(world.owner.tokens.access_token);
    expect(text).not.toMatch(/access_token|refresh_token/);
    expect(file.redacted).toBe(0);
    expect(file.user_id).toBe(member.user.id);
    expect(file.replica).toMatchObject({ database: `cairn-${member.user.id}`, schema_version: latestSchema().version });
    expect(file.queue.map((r) => r.method).sort()).toEqual(['delete', 'put', 'put', 'put', 'put', 'put']);
    expect(file.drafts).toHaveLength(1);
    expect(file.refused).toHaveLength(1);
    expect(file.refused[0]).toMatchObject({ status: 422 });
    // Read back as the replay tool reads it.
    expect(parseUnsyncedExport(text, latestSchema().version).queue).toHaveLength(6);
    expect(() => parseUnsyncedExport(JSON.stringify({ ...file, replica: { ...file.replica, schema_version: latestSchema().version + 1 } }), latestSchema().version)).toThrow(/schema_version/);
  }, HEAVY_TEST_TIMEOUT_MS);

  it(`read-only replay predicts each verdict without writing; applied through injected faults (${SEEDS.length} seeds) it gives the same verdicts`, async () => {
    const seen = new Set<Fault>();
    for (const seed of SEEDS) {
      try {
        const world = await createWorld();
        worlds.push(world);
        const member = await addMember(world, 'admin');
        const { file, ids } = await scenario(world, member);
        const target = { url: world.url, token: member.token };

        const before = await changeCount(world);
        const readOnly = await replayUnsynced(file, target);
        expect(readOnly.applied).toBeNull();
        expect(readOnly.blockedWrites).toBe(0);
        expectVerdicts(readOnly.predicted, ids, false);
        expect(await changeCount(world), 'a read-only replay wrote to the server').toBe(before);

        const faults: Fault[] = [];
        const net = faultyNetwork(mulberry32(seed), faults);
        const report = await replayUnsynced(file, target, { apply: true, fetch: net.fetch, clock: new ManualClock(Date.now()), random: mulberry32(seed + 1), batchSize: 1 + (seed % 4), onRound: (round) => (net.state.faulty = round < 6) });
        for (const f of faults) seen.add(f);
        expect(report.unsent).toBe(0);
        expectVerdicts(report.applied!, ids, true);
        // Verdicts agree with the server.
        const items = new Map((await itemsOf(world, world.owner.token)).map((i) => [i.id, i]));
        expect(items.get(ids.landed)).toMatchObject({ name: 'Landed, renamed offline' });
        expect(items.get(ids.merged)).toMatchObject({ name: 'Merged, renamed offline', position: 42 });
        expect(items.get(ids.conflicted)).toMatchObject({ name: 'Conflicted: theirs' });
        expect(items.get(ids.created)).toMatchObject({ name: 'Created offline' });
        expect(items.has(ids.badNew)).toBe(false);
        expect(items.has(ids.deleted)).toBe(false);
        expect(items.get(ids.drafted)).toMatchObject({ name: 'Drafted' });
        await world.close();
        worlds.splice(worlds.indexOf(world), 1);
      } catch (error) {
        console.error(`replay-file failed for seed ${seed} (rerun with REPLAY_FILE_SEED=${seed})`);
        throw error;
      }
    }
    if (SEEDS.length >= 3) expect([...seen].filter((f) => f !== 'none').length, 'faults were injected').toBeGreaterThan(0);
  }, HEAVY_TEST_TIMEOUT_MS + SEEDS.length * 30_000);

  it('npm run replay -- <file> --db <dir> replays on a copy: verdicts printed, the folder given unchanged', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-replay-db-'));
    try {
      // A server on an embedded database in a folder, as `npm start` keeps it (DATA_DIR/pglite).
      const pglite = new PGlite(path.join(dir, 'pglite'), { loadDataDir: new Blob([fs.readFileSync(TEMPLATE_FILE)]) });
      const server = await createTestServer({ database: await openDatabase({ databaseUrl: null, pglite }) });
      const world = await createWorld(server);
      const member = await addMember(world, 'admin');
      const { text, ids } = await scenario(world, member);
      await world.close();
      const file = path.join(dir, 'unsynced.json');
      fs.writeFileSync(file, text);

      const out = await waitingFor('the replay CLI', () => runCli([file, '--db', dir, '--json']));
      expect(out.code, out.stderr).toBe(0);
      const report = JSON.parse(out.stdout.slice(out.stdout.indexOf('{'))) as { predicted: Verdict[]; applied: Verdict[] };
      expectVerdicts(report.predicted, ids, false);
      expectVerdicts(report.applied, ids, true);

      // The human form names each verdict (one boot of the copy per run is slow on a busy machine: one run here).
      const human = report.applied.map(formatVerdict).join('\n');
      expect(human).toMatch(/CONFLICT .*item .* \[name\]/);
      expect(human).toMatch(/MERGE .*\[name\]/);
      expect(human).toMatch(/REFUSED .*\(422\)/);

      // The folder given was not written: the landed rename is not in it.
      const check = await openDatabase({ databaseUrl: null, dataDir: dir });
      const row = await check.db.selectFrom('records').select('data').where('id', '=', ids.landed).executeTakeFirstOrThrow();
      await check.close();
      expect((row.data as { name: string }).name).toBe('Landed');

      const usage = await runCli([file]);
      expect(usage.code).toBe(2);
      expect(usage.stderr).toMatch(/--db|--url/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, HEAVY_TEST_TIMEOUT_MS);
});

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/replay.ts', ...args], { env: { ...process.env, TEST_DATABASE_URL: '', DATABASE_URL: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
