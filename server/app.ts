import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import type { AppContext } from './context';
import { installErrorHandler } from './http/errors';
import { registerSecurityHeaders } from './http/security-headers';
import { acceptEmptyJsonBodies } from './http/json-body';
import { installNulGuard } from './http/nul-guard';
import { installDepthGuard } from './http/depth-guard';
import { assetCacheControl } from './http/asset-cache';
import { installReadOnlyGuard } from './billing/read-only';
import { modules } from './modules';
import { sendTenantIndex } from './whitelabel/tenant';
import { isAppPath } from '../schema/routes';
import { Messages } from '../schema/messages';
import { PHOTO_MAX_BYTES } from '../schema/constants';
import type { RouteDocs } from './api-docs/route-docs';

/** Builds the HTTP app around a context. Listening is the caller's job (main.ts, tests). */
export async function buildApp(ctx: AppContext, opts: { logger?: boolean | object } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? { level: ctx.config.logLevel },
    bodyLimit: 5 * 1024 * 1024,
    // Only trust X-Forwarded-For from a configured proxy, or per-IP limits could be dodged.
    trustProxy: ctx.config.trustProxy as boolean, // (the union confuses Fastify's overloads)
  });
  installErrorHandler(app);
  acceptEmptyJsonBodies(app);
  installNulGuard(app);
  installDepthGuard(app);
  // Writes to a workspace whose subscription ended are refused (decision 0360).
  installReadOnlyGuard(app, ctx);
  // First, so every response (API, app shell, assets, uploads, 404s) carries the headers.
  await registerSecurityHeaders(app, ctx.config);
  await app.register(cookie);
  await app.register(multipart, { limits: { fileSize: PHOTO_MAX_BYTES, files: 1 } });
  app.decorate('ctx', ctx);
  // Every route as registered, so tests can check each one against schema/route-access.ts.
  const registeredRoutes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', registeredRoutes);
  app.addHook('onRoute', (route) => {
    // With the route's own description for the OpenAPI document (server/api-docs, decision 0146).
    for (const method of [route.method].flat()) registeredRoutes.push({ method: String(method), url: route.url ?? route.path, docs: route.config?.docs });
  });

  for (const register of modules) await register(app, ctx);

  const indexHtml = path.join(ctx.config.webDir, 'index.html');
  const hasWeb = fs.existsSync(indexHtml);
  if (hasWeb) {
    const serviceWorker = path.join(ctx.config.webDir, 'sw.js');
    await app.register(fastifyStatic, {
      root: ctx.config.webDir,
      wildcard: false,
      index: false,
      serve: true,
      prefix: '/',
      // The service worker is checked for updates on every navigation: never from a cache, and
      // allowed to control the whole origin (docs/decisions/0080-service-worker.md).
      setHeaders(reply, filePath) {
        // Built files named by their content's hash: cached for a year, never asked for again.
        const cache = assetCacheControl(ctx.config.webDir, filePath);
        if (cache) reply.header('cache-control', cache);
        if (filePath !== serviceWorker) return;
        reply.header('cache-control', 'no-cache').header('service-worker-allowed', '/');
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split('?')[0]!;
    const isApi = url.startsWith('/api/') || url === '/api' || url.startsWith('/apps/') || url.startsWith('/app/');
    const isAsset = /\.[a-z0-9]{1,8}$/i.test(url);
    // App paths win over the asset guess: /password/reset/{token}/{email} ends in ".com".
    if (!isApi && (!isAsset || isAppPath(url)) && request.method === 'GET' && hasWeb) {
      // Unknown app paths still get the app (it renders the not-found page) but with status 404.
      const status = isAppPath(url) ? 200 : 404;
      // A white-labelled domain gets its name, icons and colours in the page itself (decision 0265).
      if (await sendTenantIndex(ctx, request, reply, indexHtml, status)) return reply;
      return reply.status(status).type('text/html').header('cache-control', 'no-cache').send(fs.createReadStream(indexHtml));
    }
    return reply.status(404).send({ message: Messages.notFound, type: 'not_found' });
  });
  return app;
}

/** One method and URL pattern of the app's route table, as Fastify registered it. */
export interface RegisteredRoute {
  method: string;
  url: string;
  docs?: RouteDocs;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    /** Every route registered on the app (HEAD twins of GET routes included). */
    registeredRoutes: readonly RegisteredRoute[];
  }
}
