import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notFound, validation } from './errors';

/**
 * PostgreSQL cannot hold the NUL character (U+0000) in text or jsonb: a query carrying one fails
 * ("invalid byte sequence", "unsupported Unicode escape sequence"), which surfaced as a 500. No
 * record can contain it, so a request that does is refused before any handler runs: a path
 * parameter names nothing (404, like any malformed id), a query or body field is a 422 naming it.
 * An unpaired UTF-16 surrogate ("\ud800" in JSON) is refused the same way: jsonb cannot hold it
 * either (security review N11: "invalid input syntax for type json" answered 500).
 */

const NUL = '\u0000';
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when the text holds a NUL or an unpaired surrogate: no text column or jsonb can store it. */
export function unstorableText(text: string): boolean {
  return text.includes(NUL) || LONE_SURROGATE.test(text);
}

/** What is wrong with a string unstorableText refused (for the message). */
const problem = (text: string) => (text.includes(NUL) ? 'must not contain the NUL character' : 'must not contain an unpaired UTF-16 surrogate');

/** The path of the first string (key or value) holding a NUL or an unpaired surrogate, or null. Iterative: bodies may nest deeply. */
export function nulPath(value: unknown, root: string): string | null {
  return badTextAt(value, root)?.path ?? null;
}

function badTextAt(value: unknown, root: string): { path: string; text: string } | null {
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length > 0) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'string') {
      if (unstorableText(current)) return { path, text: current };
    } else if (current && typeof current === 'object') {
      if (Array.isArray(current)) {
        for (let i = current.length - 1; i >= 0; i--) stack.push([current[i], path ? `${path}.${i}` : String(i)]);
      } else {
        for (const [key, child] of Object.entries(current)) {
          if (unstorableText(key)) return { path, text: key };
          stack.push([child, path ? `${path}.${key}` : key]);
        }
      }
    }
  }
  return null;
}

function check(request: FastifyRequest): void {
  if (badTextAt(request.params, '') !== null) throw notFound();
  const inQuery = badTextAt(request.query, '');
  if (inQuery !== null) throw validation([`${inQuery.path || 'query'}: ${problem(inQuery.text)}`]);
  const inBody = badTextAt(request.body, '');
  if (inBody !== null) throw validation([`${inBody.path || 'body'}: ${problem(inBody.text)}`]);
}

/** Refuses NUL characters in path parameters, query and JSON body on every route registered after it. */
export function installNulGuard(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => check(request));
}
