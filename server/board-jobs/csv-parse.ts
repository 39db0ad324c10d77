import Papa from 'papaparse';
import { unescapeFormula } from '../../schema/csv-formula';

/**
 * A CSV text as rows of cells (papaparse, the parser the app's mapping screen uses too). The
 * delimiter the app detected is passed back; empty means papaparse detects it again.
 */
export interface ParsedCsv {
  header: string[];
  rows: string[][];
  delimiter: string;
}

export function parseCsv(text: string, opts: { delimiter: string; header: boolean }): ParsedCsv {
  // A byte order mark is not part of the first column's name.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const parsed = Papa.parse<string[]>(body, { delimiter: opts.delimiter || undefined, skipEmptyLines: false });
  // A cell our export escaped against formula injection ('=…, '-5) is read as it was (N6).
  const data = parsed.data.map((row) => row.map(unescapeFormula));
  // A trailing newline gives one last row holding one empty cell: not a row of the file.
  while (data.length && data[data.length - 1]!.length === 1 && data[data.length - 1]![0] === '') data.pop();
  const width = data.reduce((max, row) => Math.max(max, row.length), 0);
  const header = opts.header && data.length ? data[0]! : Array.from({ length: width }, (_, i) => `Column ${i + 1}`);
  return { header, rows: opts.header ? data.slice(1) : data, delimiter: parsed.meta.delimiter };
}

/** Parsed payloads of running imports, so each step does not parse the whole file again. */
const cache = new Map<string, ParsedCsv>();

export function parsedPayload(jobId: string, text: string, opts: { delimiter: string; header: boolean }): ParsedCsv {
  const hit = cache.get(jobId);
  if (hit) return hit;
  const parsed = parseCsv(text, opts);
  // Two imports at a time per server are plenty to keep; the oldest goes first.
  if (cache.size >= 2) cache.delete(cache.keys().next().value!);
  cache.set(jobId, parsed);
  return parsed;
}

export function cachedPayload(jobId: string): ParsedCsv | undefined {
  return cache.get(jobId);
}

export function forgetPayload(jobId: string): void {
  cache.delete(jobId);
}
