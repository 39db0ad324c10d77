import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { buildOpenApiDocument } from './openapi';

/** The page's files, read once: a static HTML page with its own script and style (CSP: no inline script). */
const page = (name: string) => fs.readFileSync(new URL(`./page/${name}`, import.meta.url), 'utf8');

/** GET /api/docs (browsable), /api/docs/openapi.json (the document) and the page's assets (decision 0146). */
export function apiDocsRoutes(app: FastifyInstance, ctx: AppContext) {
  const html = page('index.html');
  const script = page('docs.js');
  const style = page('docs.css');
  // Built on first request, when every module has registered its routes.
  let document: unknown = null;
  const docs = { auth: 'none' as const, tag: 'API documentation' };

  app.get('/api/docs/openapi.json', { config: { docs: { ...docs, summary: 'This API as an OpenAPI 3.1 document' } } }, async (_request, reply) => {
    document ??= buildOpenApiDocument(app.registeredRoutes, { version: ctx.config.appVersion, serverUrl: ctx.config.publicUrl });
    return reply.header('cache-control', 'no-cache').send(document);
  });
  app.get('/api/docs', { config: { docs: { ...docs, summary: 'The browsable API documentation' } } }, async (_request, reply) => reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html));
  app.get('/api/docs/docs.js', { config: { docs: { ...docs, summary: 'The documentation page’s script' } } }, async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(script));
  app.get('/api/docs/docs.css', { config: { docs: { ...docs, summary: 'The documentation page’s style sheet' } } }, async (_request, reply) => reply.type('text/css; charset=utf-8').send(style));
}
