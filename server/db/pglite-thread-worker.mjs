// PGlite in a worker thread of its own (issue #31, decision 0373): the server's thread sends each
// statement here and waits for the answer as for a socket, so a long statement of a job no longer
// holds the server's event loop. Plain JavaScript: it runs as is under node, tsx and vitest.
// workerData {dataDir}: a folder, or null for an in-memory database. Messages in: {id, sql, params}
// or {id, close: true}; out: {ready}, {id, rows, affectedRows} or {id, error}.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const pg = workerData.dataDir ? new PGlite(workerData.dataDir) : new PGlite();

/** An error as plain fields (PostgreSQL's code, detail, constraint… survive the copy). */
function plain(error) {
  const out = { message: error instanceof Error ? error.message : String(error) };
  if (error && typeof error === 'object') for (const [key, value] of Object.entries(error)) if (typeof value !== 'object' || value === null) out[key] = value;
  return out;
}

pg.waitReady.then(
  () => parentPort.postMessage({ ready: true }),
  (error) => parentPort.postMessage({ ready: false, error: plain(error) }),
);

// One statement at a time: the server's pool sends the next only after this answer.
parentPort.on('message', async (message) => {
  if (message.close) {
    await pg.close().catch(() => undefined);
    parentPort.postMessage({ id: message.id, rows: [], affectedRows: 0 });
    return;
  }
  try {
    const result = await pg.query(message.sql, message.params);
    parentPort.postMessage({ id: message.id, rows: result.rows, affectedRows: result.affectedRows ?? 0 });
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: plain(error) });
  }
});
