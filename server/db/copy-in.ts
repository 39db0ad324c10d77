import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql, type RawBuilder } from 'kysely';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/**
 * `COPY … FROM STDIN` through Kysely (issue #31 part 3, decision 0362). Kysely sends every
 * statement as `client.query(text, params)` on the connection of the transaction it runs in; a
 * statement whose only parameter is a CopyIn is instead streamed with pg-copy-streams on that same
 * client, so a COPY runs inside the caller's transaction like any other statement. Enabled per
 * client of a PostgreSQL pool (`pool.on('connect', enableCopyIn)`); PGlite has no COPY FROM STDIN
 * through this path (its writers use multi-row statements).
 */
export class CopyIn {
  constructor(readonly text: string) {}
}

/** The statement for `copyInto`: `copy <target> from stdin` with the rows as its one parameter. */
export function copyStatement(target: RawBuilder<unknown>, rows: string): RawBuilder<unknown> {
  return sql`copy ${target} from stdin ${new CopyIn(rows)}`;
}

/** One field of COPY's text format: backslash, tab, newline and carriage return escaped; null is \N. */
export function copyField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '\\N';
  return String(value).replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

/** A row of COPY's text format. */
export function copyLine(fields: (string | number | null | undefined)[]): string {
  return `${fields.map(copyField).join('\t')}\n`;
}

const enabled = new WeakSet<object>();
/** Databases (Kysely instances) whose pool clients have enableCopyIn. */
const capable = new WeakSet<object>();

/** Marks a database whose pool's clients run CopyIn statements (openDatabase, PostgreSQL). */
export function markCopyCapable(db: object): void {
  capable.add(db);
}

/** Whether writes to this database may use COPY (PostgreSQL); PGlite answers false. */
export function copyCapable(db: object): boolean {
  return capable.has(db);
}

/** Lets this pg client run a CopyIn statement (see above); other statements go through unchanged. */
export function enableCopyIn(client: pg.PoolClient): void {
  if (enabled.has(client)) return;
  enabled.add(client);
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const [text, params] = args;
    if (typeof text === 'string' && Array.isArray(params) && params.length === 1 && params[0] instanceof CopyIn) {
      return runCopy(client, text.replace(/\s*\$1\s*$/, ''), params[0].text);
    }
    return query(...args);
  };
}

async function runCopy(client: pg.PoolClient, text: string, rows: string): Promise<{ command: string; rowCount: number; rows: never[] }> {
  const stream = client.query(copyFrom(text));
  await pipeline(Readable.from([rows]), stream);
  return { command: 'COPY', rowCount: Number(stream.rowCount ?? 0), rows: [] };
}
