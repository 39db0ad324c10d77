import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { SERVER_ID_HEADER } from '../../schema/constants';
import { changeHorizon } from './cursor';
import type { Db } from './store';

/**
 * Which database this server answers from (decision 0102, migration 0102). Clients keep the id
 * with their replica: an answer naming another id means the replica belongs to another database
 * (the server was reset or pointed elsewhere) and is loaded again. Read once per database handle:
 * it only changes through `rotateServerIdentity`, which an operator runs with the server stopped.
 */
const identities = new WeakMap<object, Promise<string>>();

export function serverIdentity(db: Db): Promise<string> {
  const key = db as object;
  let found = identities.get(key);
  if (!found) {
    found = sql<{ id: string }>`select id from server_identity`.execute(db).then((r) => {
      const id = r.rows[0]?.id;
      if (!id) throw new Error('server_identity holds no row: run the migrations.');
      return id;
    });
    // A failed read (database not up yet) is tried again by the next caller.
    found.catch(() => identities.delete(key));
    identities.set(key, found);
  }
  return found;
}

/**
 * Gives the database a new identity: run after restoring a backup, whose id (and change numbers)
 * clients may already have gone past. Every client then loads its boards again and replays its
 * unsent edits. Returns the new id (tests may name it, to stand for a backup of a given database).
 */
export async function rotateServerIdentity(db: Db, id: string = randomUUID()): Promise<string> {
  await sql`update server_identity set id = ${id}, created_at = now()`.execute(db);
  identities.delete(db as object);
  return id;
}

/**
 * Every answer carries the identity as a header (API, app shell, errors alike), so the worker sees
 * it on whatever call it makes first after a reconnect, and
 * GET /api/server answers `{data: {id, cursor}}`: the identity and the change horizon (the highest
 * cursor this database has handed out or will hand out next). Public, like /api/app-vars: the
 * cursor is a count of the server's writes, which any workspace member already sees in /changes.
 */
export function serverIdentityRoutes(app: FastifyInstance, ctx: AppContext) {
  app.addHook('onSend', async (_request, reply, payload) => {
    try {
      reply.header(SERVER_ID_HEADER, await serverIdentity(ctx.db));
    } catch {
      // No identity yet (a broken database): the answer goes out without it.
    }
    return payload;
  });

  app.get('/api/server', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    const [id, cursor] = await Promise.all([serverIdentity(ctx.db), changeHorizon(ctx.db)]);
    return { data: { id, cursor } };
  });
}
