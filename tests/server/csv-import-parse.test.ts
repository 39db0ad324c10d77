import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsv, parseCsvOffThread } from '../../server/board-jobs/csv-parse';

/**
 * The CSV import's parse in a worker thread (issue #31) reads a file exactly as parseCsv does on
 * the server's thread: papaparse's chunks (made tiny here, so rows, quotes and line ends fall
 * across them) give the same rows, the same header and the same detected delimiter.
 */

const tricky = [
  '\ufeffName;Note;Amount',
  'Plain;one;1',
  '"Quoted; with the delimiter";"two ""quotes""";2',
  '"A name over',
  'two lines";"and a ; here";3',
  "'=SUM(A1:A2);'-5;4",
  ';;',
  'Short;row',
  'Last;row;5\r\nCRLF;line;6',
  '',
].join('\n');

describe('CSV import: the parse in a worker thread', () => {
  for (const header of [true, false]) {
    for (const delimiter of ['', ';']) {
      it(`reads as parseCsv does (header ${header}, delimiter ${delimiter || 'detected'})`, async () => {
        const expected = parseCsv(tricky, { delimiter, header });
        expect(expected.delimiter).toBe(';');
        // (A detected delimiter is guessed from the first chunk: 1 MB in the server, not 7 characters.)
        for (const chunkSize of delimiter ? [7, 64, 1 << 20] : [64, 1 << 20]) {
          const rowsSeen: number[] = [];
          const got = await parseCsvOffThread({ text: tricky }, { delimiter, header, chunkSize, onRows: (n) => rowsSeen.push(n) });
          expect(got, `chunks of ${chunkSize}`).toEqual(expected);
          expect(rowsSeen.length).toBeGreaterThan(0);
        }
      });
    }
  }

  it('reads a file there, and a large one in many messages', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-csv-'));
    try {
      const lines = ['Name,Score,When', ...Array.from({ length: 30_000 }, (_, i) => `"Item, ${i}",${i},2025-01-${String((i % 28) + 1).padStart(2, '0')}`)];
      const file = path.join(dir, 'big.csv');
      fs.writeFileSync(file, lines.join('\n') + '\n');
      const counts: number[] = [];
      const got = await parseCsvOffThread({ file }, { delimiter: ',', header: true, chunkSize: 64 * 1024, onRows: (n) => counts.push(n) });
      expect(got).toEqual(parseCsv(fs.readFileSync(file, 'utf8'), { delimiter: ',', header: true }));
      expect(got.rows).toHaveLength(30_000);
      expect(counts.length).toBeGreaterThan(5);
      await expect(parseCsvOffThread({ file: path.join(dir, 'missing.csv') }, { delimiter: ',', header: true })).rejects.toThrow(/ENOENT/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
