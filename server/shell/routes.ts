import crypto from 'node:crypto';
import { z } from 'zod';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { optionalUser } from '../auth/guard';
import { ApiError, notFound, parseBody } from '../http/errors';
import { saveShellSettings, shellSettings, shellSettingsSchema, updateHeaders } from './settings';

/**
 * The server side of the shell rules of shell.md (issue #17 part 8, decision 0230):
 *
 * - GET /message: the status banner. 200 {content} while an operator has set a message, 204 when
 *   none. Outside /api: the spec polls `{host}/message`, and app-vars `statusHost` may point the app
 *   at another host (a status page that stays up when the API does not).
 * - PUT /api/log: a named event with properties (the analytics "backend" driver and the app's error
 *   reporter). Written to the server log as one structured line; never stored in the database.
 *   Anyone may send (errors happen signed out too), throttled per address.
 * - GET /api/additional-scripts.js: the operator's additional script (app-vars `additionalScripts`
 *   says whether the app loads it); 204 when none.
 * - x-update-required / x-force-reload on API answers to clients of another version (settings.ts).
 * - PUT /ops/shell-settings: how an operator changes them, with `Authorization: Bearer $ADMIN_TOKEN`;
 *   404 while ADMIN_TOKEN is unset (like /metrics). GET answers the current settings.
 */

export const logBody = z.object({
  name: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
  properties: z.record(z.string(), z.unknown()).optional(),
});

/** Events per address per minute; more are acknowledged and dropped (a reporter in a loop). */
export const LOG_EVENTS_PER_MINUTE = 60;
/** A property's text is cut to this many characters (a stack trace stays readable, a flood does not). */
const MAX_PROPERTY_CHARS = 4_000;

function trimmed(properties: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(properties ?? {}).slice(0, 30)) {
    const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
    out[key.slice(0, 60)] = text.length <= MAX_PROPERTY_CHARS ? value : `${text.slice(0, MAX_PROPERTY_CHARS)}…`;
  }
  return out;
}

function bearerMatches(request: FastifyRequest, token: string): boolean {
  const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(token).digest();
  return given.length > 0 && crypto.timingSafeEqual(a, b);
}

export function shellRoutes(app: FastifyInstance, ctx: AppContext) {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.url.startsWith('/api/')) return payload;
    const clientVersion = request.headers['x-client-version'];
    if (typeof clientVersion !== 'string') return payload;
    const settings = await shellSettings(ctx.db);
    for (const [name, value] of Object.entries(updateHeaders(settings.update, clientVersion, ctx.config.appVersion))) reply.header(name, value);
    return payload;
  });

  app.get('/message', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    // The app may poll from another origin (app-vars statusHost); the text is public anyway.
    reply.header('access-control-allow-origin', '*');
    const { message } = await shellSettings(ctx.db);
    if (!message || !message.trim()) return reply.status(204).send();
    return { content: message };
  });

  const sent = new Map<string, { minute: number; count: number }>();
  app.put('/api/log', async (request, reply) => {
    const body = parseBody(logBody, request.body);
    const minute = Math.floor(ctx.now().getTime() / 60_000);
    const slot = sent.get(request.ip);
    const count = slot && slot.minute === minute ? slot.count + 1 : 1;
    if (sent.size > 10_000) sent.clear();
    sent.set(request.ip, { minute, count });
    if (count > LOG_EVENTS_PER_MINUTE) return reply.status(204).send();
    const user = await optionalUser(ctx.db, request, { deadTokenIsAnonymous: true }).catch(() => null);
    request.log.info({ client_event: body.name, user_id: user?.id ?? null, properties: trimmed(body.properties) }, 'client event');
    return reply.status(204).send();
  });

  app.get('/api/additional-scripts.js', async (_request, reply) => {
    const { additional_scripts: script } = await shellSettings(ctx.db);
    reply.header('cache-control', 'no-cache');
    if (!script) return reply.status(204).send();
    return reply.type('application/javascript; charset=utf-8').send(script);
  });

  const token = ctx.config.adminToken;
  const guard = (request: FastifyRequest) => {
    // Off without a token (404, as if the route did not exist); a wrong token is 401.
    if (!token) throw notFound();
    if (!bearerMatches(request, token)) throw new ApiError(401, 'A valid admin token is required.', 'unauthenticated');
  };
  app.get('/ops/shell-settings', async (request) => {
    guard(request);
    return { data: await shellSettings(ctx.db, { fresh: true }) };
  });
  app.put('/ops/shell-settings', async (request) => {
    guard(request);
    const patch = parseBody(shellSettingsSchema, request.body);
    return { data: await saveShellSettings(ctx.db, patch, ctx.now()) };
  });
}
