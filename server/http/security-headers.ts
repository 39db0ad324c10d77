import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import type { ServerConfig } from '../config';

/** One year; sent only on responses to requests that arrived over TLS. */
export const HSTS_VALUE = 'max-age=31536000';

/**
 * Where the browser may open the realtime WebSocket. The embedded endpoint is on the page's own
 * origin, which CSP's 'self' covers (ws: and wss: included); an external Pusher-protocol service
 * (PUSHER_HOST) is named explicitly with the scheme and port the browser is told to use.
 */
export function realtimeSources(pusher: ServerConfig['pusher']): string[] {
  if (!pusher.host) return [];
  const port = pusher.port ? `:${pusher.port}` : '';
  return [`${pusher.useTLS ? 'wss' : 'ws'}://${pusher.host}${port}`];
}

/**
 * Where the browser may load uploads from besides our origin: the object store, when downloads are
 * redirected to its signed URLs (FILE_DOWNLOADS=redirect, decision 0190).
 */
export function fileSources(files: ServerConfig['files']): string[] {
  if (files.downloads !== 'redirect' || !files.s3) return [];
  const endpoint = files.s3.publicEndpoint;
  if (!endpoint) return ['https://*.amazonaws.com'];
  return [new URL(endpoint).origin];
}

/**
 * The Content-Security-Policy of every response (docs/decisions/0092-secrets-and-headers.md).
 * Scripts, styles, workers and the service worker come only from our origin: the built app has no
 * inline script, and zod runs jitless in the browser (no eval). Images also allow data: (the 2FA
 * QR code) and blob: (photo previews). Nothing may frame the app.
 */
export function contentSecurityPolicy(config: ServerConfig): Record<string, string[]> {
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:', 'blob:', ...fileSources(config.files)],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...realtimeSources(config.pusher), ...fileSources(config.files)],
    'worker-src': ["'self'"],
    'manifest-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}

/**
 * Security headers on every response: API, app shell, static assets, uploads, the service worker,
 * and 404s. HSTS is added per request, only when the request arrived over TLS (directly or through
 * a proxy trusted with TRUST_PROXY): on plain http it would be ignored at best, and it must never
 * pin a deployment that has no certificate yet. `upgrade-insecure-requests` is left out for the
 * same reason: it breaks a plain-http install on a LAN address.
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: ServerConfig): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(config) },
    strictTransportSecurity: false,
    xFrameOptions: { action: 'deny' },
    // URLs carry board ids and reset tokens (/password/reset/{token}/…): never send them elsewhere.
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    // Uploads are shown by our own pages only; other sites may not embed them.
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });
  app.addHook('onRequest', async (request, reply) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS_VALUE);
  });
}
