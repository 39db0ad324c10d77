import Papa from 'papaparse';
import { unescapeFormula } from '../../schema/csv-formula';
import { guessKind, guessNameColumn, type KindGuess } from '../../schema/csv-import';

/**
 * What the mapping screen needs of a CSV text: its delimiter (papaparse detects it), the header,
 * the first rows for the preview, the number of rows (the row limit), and per column the kind its
 * cells suggest. Runs in a Web Worker (csv-worker.ts), so a 100,000-row file never blocks the tab.
 */
export interface CsvAnalysis {
  delimiter: string;
  header: string[];
  preview: string[][];
  rowCount: number;
  guesses: KindGuess[];
  nameColumn: number;
}

/** Rows the kind guess looks at (enough to see every label of a typical column). */
const SAMPLE_ROWS = 2000;
export const PREVIEW_ROWS = 5;

export function analyseCsv(text: string, opts: { delimiter?: string; header?: boolean } = {}): CsvAnalysis {
  const parsed = Papa.parse<string[]>(text, { delimiter: opts.delimiter || undefined, skipEmptyLines: 'greedy' });
  // Cells an export escaped against formula injection ('-5) are guessed as the server will read them.
  const rows = parsed.data.map((row) => row.map(unescapeFormula));
  const withHeader = opts.header ?? true;
  const width = rows.reduce((max, row) => Math.max(max, row.length), 0);
  const header = withHeader && rows.length ? rows[0]!.map((h, i) => h.trim() || `Column ${i + 1}`) : Array.from({ length: width }, (_, i) => `Column ${i + 1}`);
  const body = withHeader ? rows.slice(1) : rows;
  const sample = body.slice(0, SAMPLE_ROWS);
  const guesses = header.map((_, i) => guessKind(sample.map((row) => row[i] ?? '')));
  return {
    delimiter: parsed.meta.delimiter,
    header,
    preview: body.slice(0, PREVIEW_ROWS),
    rowCount: body.length,
    guesses,
    nameColumn: guessNameColumn(header, guesses),
  };
}
