// The CSV import's parse, in a worker thread (issue #31): papaparse reads a file of up to 40 MB in
// one to two seconds of CPU, which on the server's thread would hold every request that long.
// Plain JavaScript so it runs as is under node, tsx and vitest alike (no loader in the thread).
// Reads workerData {file | text, delimiter, chunkSize}; posts {rows, delimiter} per chunk of the
// text (about chunkSize characters), then {done: true}, or {error}.
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import Papa from 'papaparse';

const { file, text, delimiter, chunkSize } = workerData;

try {
  const body = file ? fs.readFileSync(file, 'utf8') : text;
  Papa.parse(body, {
    delimiter: delimiter || undefined,
    skipEmptyLines: false,
    chunkSize: chunkSize || 1 << 20,
    chunk(results) {
      parentPort.postMessage({ rows: results.data, delimiter: results.meta.delimiter });
    },
    complete() {
      parentPort.postMessage({ done: true });
    },
  });
} catch (error) {
  parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
}
