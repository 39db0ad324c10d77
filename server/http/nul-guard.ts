import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notFound, validation } from './errors';

/**
 * PostgreSQL cannot hold the NUL character (U+0000) in text or jsonb: a query carrying one fails
 * ("invalid byte sequence", "unsupported Unicode escape sequence"), which surfaced as a 500. No
 * record can contain it, so a request that does is refused before any handler runs: a path
 * parameter names nothing (404, like any malformed id), a query or body field is a 422 naming it.
 */

const NUL = '\u0000';

/** The path of the first string (key or value) holding a NUL, or null. Iterative: bodies may nest deeply. */
export function nulPath(value: unknown, root: string): string | null {
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length > 0) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'string') {
      if (current.includes(NUL)) return path;
    } else if (current && typeof current === 'object') {
      if (Array.isArray(current)) {
        for (let i = current.length - 1; i >= 0; i--) stack.push([current[i], path ? `${path}.${i}` : String(i)]);
      } else {
        for (const [key, child] of Object.entries(current)) {
          if (key.includes(NUL)) return path;
          stack.push([child, path ? `${path}.${key}` : key]);
        }
      }
    }
  }
  return null;
}

function check(request: FastifyRequest): void {
  if (nulPath(request.params, '') !== null) throw notFound();
  const inQuery = nulPath(request.query, '');
  if (inQuery !== null) throw validation([`${inQuery || 'query'}: must not contain the NUL character`]);
  const inBody = nulPath(request.body, '');
  if (inBody !== null) throw validation([`${inBody || 'body'}: must not contain the NUL character`]);
}

/** Refuses NUL characters in path parameters, query and JSON body on every route registered after it. */
export function installNulGuard(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => check(request));
}
