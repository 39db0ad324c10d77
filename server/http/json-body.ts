import type { FastifyInstance } from 'fastify';

/**
 * Fastify's JSON parser refuses an empty body with 400, but many HTTP clients send
 * `Content-Type: application/json` on a DELETE (or a body-less POST) with nothing after it. An
 * empty (or blank) body is read as no body; anything else goes to Fastify's own parser, which
 * keeps its protection against `__proto__` and `constructor.prototype` keys.
 */
export function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if ((body as string).trim() === '') return done(null, undefined);
    return parseJson(request, body as string, done);
  });
}
