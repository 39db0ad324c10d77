import type { PGlite } from '@electric-sql/pglite';

/**
 * A minimal `pg.Pool` look-alike over one PGlite instance, so Kysely's PostgresDialect drives the
 * embedded database exactly as it drives a PostgreSQL server.
 *
 * PGlite is a single connection: a transaction opened by one Kysely connection would otherwise
 * interleave with queries from another, so each `connect()` takes an exclusive turn until `release()`.
 *
 * PGlite runs its WASM on this thread and answers without any I/O: a job writing batch after batch
 * would run as one endless chain of promise callbacks, and the event loop would never get to read
 * a socket (a 20,000-row import kept every request waiting for the whole import, issue #31). A
 * query therefore first lets the event loop take one turn (setImmediate) when the loop has not
 * turned for more than `pgliteYield.afterMs`, so requests are read and queue for the database
 * between statements of a long chain. A short request's few statements run without that detour
 * (yielding before every statement taxed every request by a loop turn per statement).
 */
export class PGlitePool {
  private tail: Promise<void> = Promise.resolve();
  /** This database's own watch of the loop: two servers in one process (tests) keep separate ones. */
  private readonly loop = new LoopWatch();

  constructor(private readonly pg: PGlite) {}

  async connect() {
    let release!: () => void;
    const turn = new Promise<void>((resolve) => (release = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => turn);
    await previous;
    const pg = this.pg;
    const loop = this.loop;
    return {
      async query(sql: string, params?: readonly unknown[]) {
        if (loop.starved()) await yieldToEventLoop();
        const result = await pg.query(sql, params as unknown[] | undefined);
        return {
          rows: result.rows,
          rowCount: result.affectedRows ?? 0,
          command: commandOf(sql),
        };
      },
      release() {
        release();
      },
    };
  }

  async end() {
    await this.tail;
  }
}

/** How long a chain of statements may keep the event loop from turning before a statement yields. */
export const pgliteYield = { afterMs: 10 };

/**
 * Whether the event loop has turned lately, as seen by one pool: a marker set with a setImmediate
 * that clears it. While the marker stands, the loop has not turned since `pendingSince`.
 */
export class LoopWatch {
  private pendingSince: number | null = null;

  starved(): boolean {
    const now = performance.now();
    if (this.pendingSince === null) {
      this.pendingSince = now;
      setImmediate(() => {
        this.pendingSince = null;
      });
      return pgliteYield.afterMs <= 0;
    }
    return now - this.pendingSince >= pgliteYield.afterMs;
  }
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

function commandOf(sql: string): string {
  const match = /^\s*(?:with\b[\s\S]*?\)\s*)?(insert|update|delete|merge|select)\b/i.exec(sql);
  return match ? match[1]!.toUpperCase() : 'SELECT';
}
