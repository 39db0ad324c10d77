import { Worker } from 'node:worker_threads';

/**
 * The `pg.Pool` look-alike of pglite-pool.ts with PGlite in a worker thread of its own
 * (pglite-thread-worker.mjs; issue #31, decision 0373). Connections still take exclusive turns
 * (PGlite is one session: a transaction must not interleave with another connection's
 * statements); each statement is a message to the thread and its answer a message back, so while
 * PGlite works the server's event loop reads sockets, answers `/api/health`, serialises JSON.
 */
export class PGliteThreadPool {
  private tail: Promise<void> = Promise.resolve();
  private readonly pending = new Map<number, { resolve: (value: { rows: unknown[]; affectedRows: number }) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private failed: Error | null = null;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (message: { id?: number; rows?: unknown[]; affectedRows?: number; error?: Record<string, unknown> & { message: string } }) => {
      if (message.id === undefined) return;
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (message.error) waiting.reject(Object.assign(new Error(message.error.message), message.error));
      else waiting.resolve({ rows: message.rows ?? [], affectedRows: message.affectedRows ?? 0 });
    });
    const stop = (error: Error) => {
      this.failed = error;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', stop);
    worker.on('exit', () => stop(new Error('The database thread stopped.')));
  }

  /** Starts the thread with PGlite on `dataDir` (null: in memory) and waits until it is ready. */
  static async open(dataDir: string | null): Promise<PGliteThreadPool> {
    const worker = new Worker(new URL('./pglite-thread-worker.mjs', import.meta.url), { workerData: { dataDir } });
    await new Promise<void>((resolve, reject) => {
      worker.once('message', (message: { ready?: boolean; error?: { message: string } }) => (message.ready ? resolve() : reject(new Error(message.error?.message ?? 'PGlite did not start'))));
      worker.once('error', reject);
    });
    return new PGliteThreadPool(worker);
  }

  private send(message: { sql?: string; params?: readonly unknown[]; close?: boolean }): Promise<{ rows: unknown[]; affectedRows: number }> {
    if (this.failed) return Promise.reject(this.failed);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...message });
    });
  }

  async connect() {
    let release!: () => void;
    const turn = new Promise<void>((resolve) => (release = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => turn);
    await previous;
    return {
      query: async (sql: string, params?: readonly unknown[]) => {
        const result = await this.send({ sql, params: params ?? [] });
        return { rows: result.rows, rowCount: result.affectedRows, command: commandOf(sql) };
      },
      release() {
        release();
      },
    };
  }

  async end() {
    await this.tail;
    if (!this.failed) await this.send({ close: true }).catch(() => undefined);
    await this.worker.terminate();
  }
}

function commandOf(sql: string): string {
  const match = /^\s*(?:with\b[\s\S]*?\)\s*)?(insert|update|delete|merge|select)\b/i.exec(sql);
  return match ? match[1]!.toUpperCase() : 'SELECT';
}
