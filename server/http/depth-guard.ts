import type { FastifyInstance } from 'fastify';
import { validation } from './errors';

/**
 * JSON nested a few thousand levels deep overflows the stack of the recursive validators (zod's
 * `z.json()` for a value's content), which surfaced as a 500. No record or settings object of ours
 * comes near this depth, so a body nested deeper is refused before any handler runs, with a 422
 * naming the top-level field it sits under.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * The top-level key (or '' for the body itself) under which `value` nests deeper than `max`
 * levels, or null. The body object is level 1. Iterative, so any depth is measured safely.
 */
export function tooDeepField(value: unknown, max = MAX_JSON_DEPTH): string | null {
  const stack: [unknown, number, string][] = [[value, 1, '']];
  while (stack.length > 0) {
    const [current, depth, field] = stack.pop()!;
    if (!current || typeof current !== 'object') continue;
    if (depth > max) return field;
    for (const [key, child] of Object.entries(current)) {
      stack.push([child, depth + 1, depth === 1 ? key : field]);
    }
  }
  return null;
}

/** Refuses over-deep JSON bodies (422) on every route registered after it. */
export function installDepthGuard(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    const field = tooDeepField(request.body);
    if (field !== null) throw validation([`${field || 'body'}: nested more than ${MAX_JSON_DEPTH} levels deep`]);
  });
}
