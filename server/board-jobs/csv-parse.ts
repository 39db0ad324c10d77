import { Worker } from 'node:worker_threads';
import Papa from 'papaparse';
import { unescapeFormula } from '../../schema/csv-formula';

/**
 * A CSV text as rows of cells (papaparse, the parser the app's mapping screen uses too). The
 * delimiter the app detected is passed back; empty means papaparse detects it again.
 *
 * The import parses in a worker thread (parseCsvOffThread, issue #31): a 40 MB file is one to two
 * seconds of CPU, and on the server's thread every request would wait that long. parseCsv is the
 * same reading on the calling thread, for small texts and as the reference the tests compare with.
 */
export interface ParsedCsv {
  header: string[];
  rows: string[][];
  delimiter: string;
}

export interface ParseOptions {
  delimiter: string;
  header: boolean;
}

export function parseCsv(text: string, opts: ParseOptions): ParsedCsv {
  // A byte order mark is not part of the first column's name.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const parsed = Papa.parse<string[]>(body, { delimiter: opts.delimiter || undefined, skipEmptyLines: false });
  // A cell our export escaped against formula injection ('=…, '-5) is read as it was (N6).
  return shaped(parsed.data.map((row) => row.map(unescapeFormula)), parsed.meta.delimiter, opts);
}

/** The rows as the import reads them: a trailing newline's empty row dropped, the header split off. */
function shaped(data: string[][], delimiter: string, opts: ParseOptions): ParsedCsv {
  // A trailing newline gives one last row holding one empty cell: not a row of the file.
  while (data.length && data[data.length - 1]!.length === 1 && data[data.length - 1]![0] === '') data.pop();
  const width = data.reduce((max, row) => Math.max(max, row.length), 0);
  const header = opts.header && data.length ? data[0]! : Array.from({ length: width }, (_, i) => `Column ${i + 1}`);
  return { header, rows: opts.header ? data.slice(1) : data, delimiter };
}

const WORKER = new URL('./csv-parse-worker.mjs', import.meta.url);

/**
 * parseCsv in a worker thread: the text (or the file, read there) is parsed chunk by chunk and
 * the rows come back a chunk per message, so this thread only copies rows in, a few milliseconds
 * at a time between other work. `onRows` hears the count of rows read so far after each chunk.
 */
export function parseCsvOffThread(source: { file: string } | { text: string }, opts: ParseOptions & { chunkSize?: number; onRows?: (rows: number) => void }): Promise<ParsedCsv> {
  return new Promise((resolve, reject) => {
    const data: string[][] = [];
    let delimiter = opts.delimiter;
    let settled = false;
    const worker = new Worker(WORKER, { workerData: { ...source, delimiter: opts.delimiter, chunkSize: opts.chunkSize } });
    const end = (error: Error | null) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      if (error) reject(error);
      else resolve(shaped(data, delimiter, opts));
    };
    worker.on('message', (message: { rows?: string[][]; delimiter?: string; done?: boolean; error?: string }) => {
      if (message.error !== undefined) return end(new Error(message.error));
      if (message.rows) {
        for (const row of message.rows) data.push(row.map(unescapeFormula));
        if (message.delimiter) delimiter = message.delimiter;
        opts.onRows?.(data.length);
      }
      if (message.done) end(null);
    });
    worker.on('error', (error) => end(error));
    worker.on('exit', () => end(new Error('The CSV reader stopped before the end of the file.')));
  });
}

/** Parsed payloads of running imports, so each step does not parse the whole file again. */
const cache = new Map<string, ParsedCsv>();

export function rememberParsed(jobId: string, parsed: ParsedCsv): ParsedCsv {
  // Two imports at a time per server are plenty to keep; the oldest goes first.
  if (!cache.has(jobId) && cache.size >= 2) cache.delete(cache.keys().next().value!);
  cache.set(jobId, parsed);
  return parsed;
}

export function cachedPayload(jobId: string): ParsedCsv | undefined {
  return cache.get(jobId);
}

export function forgetPayload(jobId: string): void {
  cache.delete(jobId);
}
