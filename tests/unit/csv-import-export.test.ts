import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { decodeCsv } from '../../src/board-jobs/encoding';
import { analyseCsv } from '../../src/board-jobs/analyse';
import { proposeMapping } from '../../src/board-jobs/mapping';
import { cellValue, parseNumber, parseDate } from '../../schema/csv-import';
import { readableValue, UTF8_BOM } from '../../schema/csv-export';

/**
 * Golden files of the CSV import's reading (encoding, delimiter, header, kinds guessed, the
 * proposed mapping and the values each preview cell becomes) and of the export's readable text
 * (decision 0161). The goldens are tests/fixtures/csv/*.golden.json; a change in guessing or
 * conversion shows as a diff there (update with `npx vitest run -u tests/unit/csv-import-export.test.ts`).
 */

const dir = path.join(__dirname, '../fixtures/csv');
const existing = [
  { id: 'attr-stage', name: 'Stage', kind: 'label' },
  { id: 'attr-team', name: 'Team', kind: 'status' },
  { id: 'attr-people', name: 'Owner email', kind: 'members' },
];

describe('CSV import: reading and mapping (golden files)', () => {
  const fixtures = fs.readdirSync(dir).filter((f) => /\.(csv)$/.test(f)).sort();
  it.each(fixtures)('%s', async (file) => {
    const { text, encoding } = decodeCsv(new Uint8Array(fs.readFileSync(path.join(dir, file))));
    const analysis = analyseCsv(text);
    const mapping = proposeMapping(analysis.header, analysis.guesses, analysis.nameColumn, existing);
    const values = analysis.preview.map((row) =>
      mapping.map((target, i) => {
        const kind = target.to === 'new' ? target.kind : target.to === 'existing' ? existing.find((a) => a.id === target.attribute_id)!.kind : 'text';
        const format = target.to === 'new' || target.to === 'existing' ? target.date_format : undefined;
        return target.to === 'skip' ? null : cellValue(kind, row[i] ?? '', format);
      }),
    );
    const golden = { encoding, delimiter: analysis.delimiter, header: analysis.header, rowCount: analysis.rowCount, guesses: analysis.guesses, nameColumn: analysis.nameColumn, mapping, values };
    await expect(JSON.stringify(golden, null, 2) + '\n').toMatchFileSnapshot(path.join(dir, file.replace(/\.csv$/, '.golden.json')));
  });

  it('reads numbers and dates as people write them', () => {
    expect(['1,234.5', '1.234,5', '1 234,5', '12,5', '1,234', '-3', 'abc'].map(parseNumber)).toEqual([1234.5, 1234.5, 1234.5, 12.5, 1234, -3, null]);
    expect([parseDate('05/03/2024', 'dmy'), parseDate('05/03/2024', 'mdy'), parseDate('2024-02-30', 'iso'), parseDate('2024-03-05T10:30', 'iso')]).toEqual(['2024-03-05', '2024-05-03', null, '2024-03-05T10:30']);
  });
});

describe('CSV export: readable values (golden file)', () => {
  it('writes each kind as people read it, and the import reads it back', async () => {
    const attributes = [
      { id: 'n', kind: 'number' },
      { id: 'd', kind: 'date' },
      { id: 'r', kind: 'date-range' },
      { id: 'l', kind: 'label', settings: { options: [{ id: 'o1', name: 'Red' }, { id: 'o2', name: 'Blue, dark' }], multiple: true } },
      { id: 's', kind: 'status', settings: { options: [{ id: 'todo', name: 'To do' }] } },
      { id: 'm', kind: 'members' },
      { id: 'e', kind: 'email' },
      { id: 'k', kind: 'link' },
      { id: 'c', kind: 'checkbox' },
      { id: 'x', kind: 'reference' },
      { id: 'a', kind: 'attachments' },
      { id: 't', kind: 'long-text' },
    ];
    const values: Record<string, unknown> = {
      n: 1234.5, d: '2025-01-31T09:05', r: { start: '2025-01-01', end: '2025-01-09' }, l: ['o1', 'o2'], s: 'todo', m: [1, 2, 99], e: 'ana@example.com',
      k: { url: 'https://example.com/', text: 'Example' }, c: true, x: ['item-1'], a: [{ id: 'f', name: 'a.pdf', size: 1, url: '/api/files/a.pdf' }], t: 'Two\nlines, "quoted"',
    };
    const lookup = { userName: (id: number) => ({ 1: 'Ana', 2: 'Ben' })[id], itemName: (id: string) => (id === 'item-1' ? 'First item' : undefined) };
    const cells = attributes.map((a) => readableValue(a, values[a.id], lookup));
    const empty = attributes.map((a) => readableValue(a, null, lookup));
    const csv = UTF8_BOM + Papa.unparse([attributes.map((a) => a.kind), cells, empty], { newline: '\r\n' }) + '\r\n';
    await expect(csv).toMatchFileSnapshot(path.join(dir, 'export-kinds.golden.csv'));
    // Read back: the number, date, email, link and checkbox come back as the same values.
    expect(cellValue('number', cells[0]!).ok && cellValue('number', cells[0]!)).toEqual({ ok: true, value: 1234.5 });
    expect(cellValue('date', cells[1]!)).toEqual({ ok: true, value: '2025-01-31T09:05' });
    expect(cellValue('email', cells[6]!)).toEqual({ ok: true, value: 'ana@example.com' });
    expect(cellValue('link', cells[7]!)).toEqual({ ok: true, value: { url: 'https://example.com/' } });
    expect(cellValue('checkbox', cells[8]!)).toEqual({ ok: true, value: true });
    expect(cellValue('checkbox', empty[8]!)).toEqual({ ok: true, value: false });
  });
});
