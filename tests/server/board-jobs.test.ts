import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestServer, type TestServer } from '../helpers/test-server';
import { board, folder, newId, teamWithRoles, type TeamFixture } from './sync-fixtures';
import { boardJobTuning } from '../../server/board-jobs/runner';
import { csvImportTuning } from '../../server/board-jobs/csv-import';
import { CSV_IMPORT_MAX_ROWS } from '../../schema/csv-import';
import type { BoardJob } from '../../schema/board-jobs';
import { primaryAttributeIdFor } from '../../schema/board-defaults';
import type { PassLoop } from '../../server/jobs/pass-loop';

/**
 * Board jobs against the real server (decision 0160): a CSV import with progress, its problems,
 * its notification and its export back; cancel and failure leave nothing of the import; who may
 * import, export and see a job. Runs on PGlite and PostgreSQL (the step retries of the failure
 * case follow the database's clock on PostgreSQL, so that case waits a few real seconds).
 */

describe('board jobs: CSV import and export', () => {
  let server: TestServer;
  let t: TeamFixture;
  const b = board({ name: 'Imports' });
  const target = folder(b.id, { name: 'Inbox' });
  const viewId = newId();

  const save = async (route: string, body: Record<string, unknown>) => {
    const res = await api(server.app, 'PUT', `/api/${t.teamId}/${route}/${encodeURIComponent(String(body.id))}`, { token: t.owner.token, body });
    expect(res.statusCode, res.body).toBe(200);
  };
  const startImport = (body: Record<string, unknown>, token = t.owner.token) => api(server.app, 'POST', `/api/${t.teamId}/boards/${b.id}/imports/csv`, { token, body: { folder_id: target.id, board_id: b.id, file_name: 'people.csv', ...body } });
  /** The upload form (what the app sends, issue #31): multipart with the options field first, then the file. */
  const uploadImport = (options: Record<string, unknown>, csv: string | null, token: string | null = t.owner.token, order: 'options-first' | 'file-first' = 'options-first') => {
    const boundary = '----cairn' + Math.random().toString(16).slice(2);
    const field = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="options"\r\n\r\n${JSON.stringify({ folder_id: target.id, board_id: b.id, file_name: 'people.csv', ...options })}\r\n`);
    const file = csv === null ? Buffer.alloc(0) : Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="people.csv"\r\nContent-Type: text/csv\r\n\r\n`), Buffer.from(csv, 'utf8'), Buffer.from('\r\n')]);
    const payload = Buffer.concat([...(order === 'options-first' ? [field, file] : [file, field]), Buffer.from(`--${boundary}--\r\n`)]);
    const headers: Record<string, string> = { 'content-type': `multipart/form-data; boundary=${boundary}` };
    if (token) headers.authorization = `Bearer ${token}`;
    return server.app.inject({ method: 'POST', url: `/api/${t.teamId}/boards/${b.id}/imports/csv`, payload, headers });
  };
  const uploadsLeft = () => {
    const dir = path.join(server.ctx.config.dataDir, 'imports');
    return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  };
  const jobOf = async (id: string, token = t.owner.token): Promise<BoardJob> => {
    const res = await api(server.app, 'GET', `/api/me/board-jobs/${id}`, { token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  /** Runs the queue until the job has ended (retries on PostgreSQL wait for the database's clock). */
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
  /** One pass of the runner (consumers, then a batch of due jobs): one step of a job. */
  const pass = () => (server.ctx.jobs as PassLoop).runOnce();
  const recordsOfJob = async (jobId: string) =>
    server.ctx.db.selectFrom('records').select(['collection', 'id']).where('team_id', '=', t.teamId).where('id', 'like', `${jobId}%`).execute();
  const people = (rows: number) =>
    ['Name,Score,Joined,Team,Email', ...Array.from({ length: rows }, (_, i) => `Person ${i + 1},${i * 2},${String((i % 28) + 1).padStart(2, '0')}/03/2024,${['Red', 'Blue', 'Green'][i % 3]},p${i}@example.com`)].join('\n');
  const peopleColumns = [
    { to: 'name' },
    { to: 'new', name: 'Score', kind: 'number' },
    { to: 'new', name: 'Joined', kind: 'date', date_format: 'dmy' },
    { to: 'new', name: 'Team', kind: 'label' },
    { to: 'new', name: 'Email', kind: 'email' },
  ];

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
    await save('folders', b);
    await save('folders', target);
    await save('folder-views', { id: viewId, board_id: b.id, folder_id: target.id, name: 'All people', kind: 'table', row_version: 1, settings: {} });
    await server.ctx.jobs.drain();
  });
  afterAll(async () => {
    boardJobTuning.sliceMs = 2000;
    csvImportTuning.postgresBatch = 2000;
    await server?.close();
  });

  it('imports rows with their mapping, reports skipped rows and cells, notifies, and exports the view back', async () => {
    const csv = `${people(20)}\n,,,,\nPerson X,not a number,01/03/2024,Red,px@example.com\nToo,many,fields,here,x@y.z,extra\n`;
    const res = await startImport({ csv, delimiter: ',', header: true, columns: peopleColumns });
    expect(res.statusCode, res.body).toBe(202);
    const started: BoardJob = res.json().data;
    expect(started).toMatchObject({ kind: 'import.csv', state: 'queued', total: 23, title: 'people.csv' });

    const job = await untilEnded(started.id);
    expect(job.state, job.error ?? '').toBe('done');
    expect(job.done).toBe(23);
    expect(job.result).toMatchObject({ items: 21, skipped: 2, folder_id: target.id });
    expect(job.errors).toEqual([
      { row: 22, message: 'empty row' },
      { row: 23, column: 'Score', message: 'enter a number' },
      { row: 24, message: 'has 6 fields, the header has 5' },
    ]);

    const items = (await recordsOfJob(started.id)).filter((r) => r.collection === 'item');
    expect(items).toHaveLength(21);
    const attributes = (await server.ctx.db.selectFrom('records').select(['id', 'data']).where('collection', '=', 'attribute').where('board_id', '=', b.id).execute()).map((r) => r.data as { name: string; kind: string; settings: any });
    expect(attributes.find((a) => a.name === 'Team')?.settings.options.map((o: { name: string }) => o.name)).toEqual(['Red', 'Blue', 'Green', ...[]]);

    // The notification comes from the job, to the one who started it.
    const notes = await api(server.app, 'GET', '/api/notifications', { token: t.owner.token });
    expect(notes.json().data.map((n: { notification_type: string }) => n.notification_type)).toContain('board_job_done');

    // The view as shown, back as CSV: a byte order mark, the header, the rows in position order.
    const exported = await api(server.app, 'GET', `/api/${t.teamId}/boards/${b.id}/exports/csv?view_id=${viewId}`, { token: t.owner.token });
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.headers['content-type']).toContain('text/csv');
    expect(exported.body.startsWith('\ufeff')).toBe(true);
    const lines = exported.body.slice(1).trimEnd().split('\r\n');
    expect(lines[0]).toBe('Name,Score,Joined,Team,Email');
    expect(lines[1]).toBe('Person 1,0,2024-03-01,Red,p0@example.com');
    expect(lines[21]).toBe('Person X,,2024-03-01,Red,px@example.com');
    expect(lines).toHaveLength(22);
  }, 120_000);

  it('exports a view with its filter, sort and hidden columns', async () => {
    const attributes = await server.ctx.db.selectFrom('records').select(['id', 'data']).where('collection', '=', 'attribute').where('board_id', '=', b.id).execute();
    const idOf = (name: string) => attributes.find((a) => (a.data as { name: string }).name === name)!.id;
    const team = attributes.find((a) => (a.data as { name: string }).name === 'Team')!;
    const blue = (team.data as { settings: { options: { id: string; name: string }[] } }).settings.options.find((o) => o.name === 'Blue')!.id;
    const filtered = newId();
    await save('folder-views', {
      id: filtered, board_id: b.id, folder_id: target.id, name: 'Blue team', kind: 'table', row_version: 1,
      settings: { filters: [{ attribute_id: idOf('Team'), op: 'is', value: blue }], sort: [{ attribute_id: idOf('Score'), direction: 'desc' }], hidden_columns: [idOf('Email')], column_order: [idOf('Team'), idOf('Score')] },
    });
    const res = await api(server.app, 'GET', `/api/${t.teamId}/boards/${b.id}/exports/csv?view_id=${filtered}`, { token: t.owner.token });
    expect(res.statusCode, res.body).toBe(200);
    const lines = res.body.slice(1).trimEnd().split('\r\n');
    expect(lines[0]).toBe('Name,Team,Score,Joined');
    // Blue is every third person from the second: scores 2, 8, 14, … highest first.
    expect(lines.slice(1)).toEqual(['Person 20,Blue,38,2024-03-20', 'Person 17,Blue,32,2024-03-17', 'Person 14,Blue,26,2024-03-14', 'Person 11,Blue,20,2024-03-11', 'Person 8,Blue,14,2024-03-08', 'Person 5,Blue,8,2024-03-05', 'Person 2,Blue,2,2024-03-02']);

    // The export reads only the values it needs: those of hidden columns still decide the rows and their order.
    const byHidden = newId();
    await save('folder-views', {
      id: byHidden, board_id: b.id, folder_id: target.id, name: 'By hidden', kind: 'table', row_version: 1,
      settings: { filters: [{ attribute_id: idOf('Email'), op: 'contains', value: 'p1' }], sort: [{ attribute_id: idOf('Score'), direction: 'desc' }], hidden_columns: [idOf('Email'), idOf('Score')] },
    });
    const hidden = await api(server.app, 'GET', `/api/${t.teamId}/boards/${b.id}/exports/csv?view_id=${byHidden}`, { token: t.owner.token });
    expect(hidden.statusCode, hidden.body).toBe(200);
    const hiddenLines = hidden.body.slice(1).trimEnd().split('\r\n');
    expect(hiddenLines[0]).toBe('Name,Joined,Team');
    expect(hiddenLines.slice(1).map((l) => l.split(',')[0])).toEqual(['Person 20', 'Person 19', 'Person 18', 'Person 17', 'Person 16', 'Person 15', 'Person 14', 'Person 13', 'Person 12', 'Person 11', 'Person 2']);
  });

  it('takes the file as an upload: answers at once in the phase parsing, reads the file in the job, and removes the stored file after (issue #31)', async () => {
    boardJobTuning.sliceMs = 0; // one piece per step: the parse is the job's first step
    const csv = `\ufeff${people(40)}\n"Quoted, ""name""\nwith a newline",7,01/04/2024,Blue,q@example.com\n'=1+2,8,02/04/2024,Red,f@example.com\n`;
    const res = await uploadImport({ delimiter: ',', header: true, rows: 42, columns: peopleColumns.map((c) => (c.to === 'new' ? { ...c, name: `${c.name} up` } : c)) }, csv);
    expect(res.statusCode, res.body).toBe(202);
    const started: BoardJob = res.json().data;
    expect(started).toMatchObject({ kind: 'import.csv', state: 'queued', phase: 'parsing', total: 42, done: 0, title: 'people.csv' });
    expect(uploadsLeft()).toEqual([`${started.id}.csv`]);
    await pass(); // admission and the parse (with the attributes)
    const read = await jobOf(started.id);
    expect(read.total).toBe(42);
    const job = await untilEnded(started.id);
    expect(job.state, job.error ?? '').toBe('done');
    expect(job.result).toMatchObject({ items: 42, skipped: 0 });
    const names = (await server.ctx.db.selectFrom('records').select('data').where('collection', '=', 'item').where('id', 'like', `${started.id}%`).execute()).map((r) => (r.data as { name: string }).name);
    expect(names).toContain('Quoted, "name"\nwith a newline');
    expect(names).toContain('=1+2');
    expect(names).toContain('Person 40');
    expect(uploadsLeft()).toEqual([]);
    boardJobTuning.sliceMs = 2000;
  }, 120_000);

  it('an upload is refused before it is read when the options are wrong, and its job fails with the reason when the file is (issue #31)', async () => {
    const columns = [{ to: 'name' }];
    // No options first, a stranger, a folder of another board: refused before the file is stored.
    expect((await uploadImport({ delimiter: ',', header: true, columns }, 'Name\na', t.owner.token, 'file-first')).statusCode).toBe(422);
    expect((await uploadImport({ delimiter: ',', header: true, columns }, 'Name\na', t.stranger.token)).statusCode).toBe(403);
    const elsewhere = await uploadImport({ folder_id: 'no-such-folder', delimiter: ',', header: true, columns }, 'Name\na');
    expect(elsewhere.statusCode).toBe(422);
    expect(elsewhere.body).toContain('select one folder');
    expect((await uploadImport({ delimiter: ',', header: true, columns }, null)).statusCode).toBe(422);
    expect((await uploadImport({ delimiter: ',', header: true, columns }, '')).statusCode).toBe(422);
    expect(uploadsLeft()).toEqual([]);
    // Read in the job: too many rows, another column count. Each fails with the reason and leaves nothing.
    const tooMany = ['Name', ...Array.from({ length: CSV_IMPORT_MAX_ROWS + 1 }, (_, i) => `r${i}`)].join('\n');
    const big = await uploadImport({ delimiter: ',', header: true, columns }, tooMany);
    const wide = await uploadImport({ delimiter: ',', header: true, columns }, 'Name,Extra\na,b');
    for (const [res, reason] of [[big, `A CSV import cannot exceed ${CSV_IMPORT_MAX_ROWS} rows.`], [wide, 'columns: the file has 2 columns, 1 targets were given']] as const) {
      expect(res.statusCode, res.body).toBe(202);
      const job = await untilEnded(res.json().data.id);
      expect(job.state).toBe('failed');
      expect(job.error).toBe(reason);
      expect(await recordsOfJob(job.id)).toEqual([]);
    }
    expect(uploadsLeft()).toEqual([]);
  }, 180_000);

  it('runs one import per workspace at a time: the second waits with its place in line, then runs (issue #31)', async () => {
    boardJobTuning.sliceMs = 0; // one batch per step
    const columnsNamed = (suffix: string) => peopleColumns.map((c) => (c.to === 'new' ? { ...c, name: `${c.name} ${suffix}` } : c));
    const first = await startImport({ csv: people(300), delimiter: ',', header: true, columns: columnsNamed('first') });
    const second = await startImport({ csv: people(300), delimiter: ',', header: true, columns: columnsNamed('second') });
    expect(first.statusCode, first.body).toBe(202);
    expect(second.statusCode, second.body).toBe(202);
    const ids = [first.json().data.id as string, second.json().data.id as string];
    await pass();
    const jobs = await Promise.all(ids.map((id) => jobOf(id)));
    expect(jobs.filter((j) => j.state === 'running'), JSON.stringify(jobs)).toHaveLength(1);
    const waiting = jobs.find((j) => j.state !== 'running')!;
    expect(waiting.state).toBe('queued');
    expect(waiting.phase).toBe('waiting');
    expect(waiting.place).toBe(1);
    const listed = (await api(server.app, 'GET', '/api/me/board-jobs', { token: t.owner.token })).json().data as BoardJob[];
    expect(listed.find((j) => j.id === waiting.id)?.place).toBe(1);
    // Both end, each with all its rows; the waiting one ran once the first was done.
    for (const id of ids) expect((await untilEnded(id)).state).toBe('done');
    for (const id of ids) expect((await recordsOfJob(id)).filter((r) => r.collection === 'item')).toHaveLength(300);
    const ended = await Promise.all(ids.map((id) => jobOf(id)));
    const running = jobs.find((j) => j.state === 'running')!;
    expect(new Date(ended.find((j) => j.id === running.id)!.finished_at!).getTime()).toBeLessThanOrEqual(new Date(ended.find((j) => j.id === waiting.id)!.finished_at!).getTime());
    boardJobTuning.sliceMs = 2000;
  }, 180_000);

  it('shows progress batch by batch, and a cancel removes everything the import wrote', async () => {
    boardJobTuning.sliceMs = 0; // one batch per step
    csvImportTuning.postgresBatch = 500; // several batches on PostgreSQL too (COPY writes 2,000 rows a batch there)
    const res = await startImport({ csv: people(3500), delimiter: ',', header: true, columns: peopleColumns.map((c) => (c.to === 'new' ? { ...c, name: `${c.name} 2` } : c)) });
    expect(res.statusCode, res.body).toBe(202);
    const id: string = res.json().data.id;
    const seen: number[] = [];
    for (let i = 0; i < 3; i++) {
      await pass();
      seen.push((await jobOf(id)).done);
    }
    expect(seen.some((done) => done > 0 && done < 3500), `progress seen: ${seen.join(', ')}`).toBe(true);
    const written = (await recordsOfJob(id)).length;
    expect(written).toBeGreaterThan(0);

    const cancel = await api(server.app, 'POST', `/api/me/board-jobs/${id}/cancel`, { token: t.owner.token });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const job = await untilEnded(id);
    expect(job.state).toBe('cancelled');
    expect(await recordsOfJob(id)).toEqual([]);
    // The replicas learn of the removal: tombstones in the change log.
    const tombstones = await server.ctx.db.selectFrom('change_log').select('record_id').where('team_id', '=', t.teamId).where('op', '=', 'deleted').where('record_id', 'like', `${id}%`).execute();
    // (Batches are sized to the time they take on the embedded database, so count what was there.)
    expect(tombstones.length).toBeGreaterThanOrEqual(written);
    // A finished job cannot be cancelled again.
    expect((await api(server.app, 'POST', `/api/me/board-jobs/${id}/cancel`, { token: t.owner.token })).statusCode).toBe(409);
    boardJobTuning.sliceMs = 2000;
    csvImportTuning.postgresBatch = 2000;
  }, 120_000);

  it('a job that fails says why and leaves no half board', async () => {
    boardJobTuning.sliceMs = 0;
    const doomed = folder(b.id, { name: 'Doomed' });
    await save('folders', doomed);
    const res = await startImport({ folder_id: doomed.id, csv: people(2500), delimiter: ',', header: true, columns: peopleColumns.map((c) => (c.to === 'new' ? { ...c, name: `${c.name} 3` } : c)) });
    expect(res.statusCode, res.body).toBe(202);
    const id: string = res.json().data.id;
    await pass(); // attributes
    await pass(); // first batch
    expect((await recordsOfJob(id)).filter((r) => r.collection === 'item').length).toBeGreaterThan(0);
    // The folder goes away under the import: every later step fails, and the job with it.
    await server.ctx.db.deleteFrom('records').where('collection', '=', 'folder').where('id', '=', doomed.id).execute();
    const job = await untilEnded(id);
    expect(job.state).toBe('failed');
    expect(job.error).toBeTruthy();
    expect(await recordsOfJob(id)).toEqual([]);
    const notes = await api(server.app, 'GET', '/api/notifications', { token: t.owner.token });
    expect(notes.json().data.map((n: { notification_type: string }) => n.notification_type)).toContain('board_job_failed');
    boardJobTuning.sliceMs = 2000;
  }, 120_000);

  it('refuses what the model refuses: importing without CREATE_ITEM, exporting without EXPORT, another user’s job', async () => {
    const body = { csv: people(2), delimiter: ',', header: true, columns: peopleColumns.map((c) => (c.to === 'new' ? { ...c, name: `${c.name} 4` } : c)) };
    expect((await startImport(body, t.stranger.token)).statusCode).toBe(403);
    expect((await api(server.app, 'POST', `/api/${t.teamId}/boards/${b.id}/imports/csv`, { body })).statusCode).toBe(401);
    // A restricted member may not add attributes.
    expect((await startImport(body, t.restricted.token)).statusCode).toBe(403);
    expect((await api(server.app, 'GET', `/api/${t.teamId}/boards/${b.id}/exports/csv?view_id=${viewId}`, { token: t.stranger.token })).statusCode).toBe(403);
    const own = await startImport(body);
    expect(own.statusCode, own.body).toBe(202);
    const id = own.json().data.id;
    expect((await api(server.app, 'GET', `/api/me/board-jobs/${id}`, { token: t.admin.token })).statusCode).toBe(404);
    expect((await api(server.app, 'POST', `/api/me/board-jobs/${id}/cancel`, { token: t.admin.token })).statusCode).toBe(404);
    const mine = await api(server.app, 'GET', '/api/me/board-jobs', { token: t.admin.token });
    expect(mine.json().data).toEqual([]);
    await untilEnded(id);
  }, 120_000);

  it('refuses more rows than the limit with the spec’s message, a folder of another board, and a second name column', async () => {
    const tooMany = ['Name', ...Array.from({ length: CSV_IMPORT_MAX_ROWS + 1 }, (_, i) => `r${i}`)].join('\n');
    const res = await startImport({ csv: tooMany, header: true, columns: [{ to: 'name' }] });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain(`A CSV import cannot exceed ${CSV_IMPORT_MAX_ROWS} rows.`);
    const elsewhere = await startImport({ folder_id: 'no-such-folder', csv: 'Name\na', header: true, columns: [{ to: 'name' }] });
    expect(elsewhere.statusCode).toBe(422);
    expect(elsewhere.body).toContain('select one folder');
    const twice = await startImport({ csv: 'A,B\na,b', header: true, columns: [{ to: 'name' }, { to: 'existing', attribute_id: primaryAttributeIdFor(b.id) }] });
    expect(twice.statusCode).toBe(422);
    expect(twice.body).toContain('Choose one column for the item names.');
  });
});
