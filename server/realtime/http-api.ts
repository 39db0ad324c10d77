import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiError, parseBody, validation } from '../http/errors';
import { isValidChannelName, MAX_EVENT_NAME_LENGTH } from './protocol';
import { httpSigningString, hmacHex, md5Hex, safeEqual } from './signature';
import { isValidSocketId, type EmbeddedRealtimeServer } from './server';

/** Signed requests older or newer than this are refused (replay window of the Pusher HTTP API). */
export const SIGNATURE_MAX_AGE_SEC = 600;
const MAX_CHANNELS_PER_EVENT = 100;
const MAX_BATCH = 100;

const channelName = z.string().refine(isValidChannelName, 'invalid channel name');
const socketId = z.string().refine(isValidSocketId, 'socket_id must look like 123.456').optional();
const eventName = z.string().min(1).max(MAX_EVENT_NAME_LENGTH);
const eventData = z.string({ error: 'data must be a string (JSON-encoded payload)' });

const eventBody = z
  .object({
    name: eventName,
    data: eventData,
    channels: z.array(channelName).min(1).max(MAX_CHANNELS_PER_EVENT).optional(),
    channel: channelName.optional(),
    socket_id: socketId,
  })
  .refine((body) => body.channels || body.channel, 'channels or channel is required');

const batchBody = z.object({
  batch: z.array(z.object({ name: eventName, data: eventData, channel: channelName, socket_id: socketId })).min(1).max(MAX_BATCH),
});

const unauthenticated = (why: string) => new ApiError(401, `Unauthorized publish request: ${why}.`, 'unauthenticated');

/**
 * The Pusher HTTP API on the embedded server: POST /apps/{appId}/events and
 * /apps/{appId}/batch_events, and GET /apps/{appId}/channels/{name}, signed with the app key and secret (auth_key, auth_timestamp,
 * auth_version, body_md5, auth_signature), so the `pusher` SDK of any API server can publish here.
 */
export async function registerHttpPublishApi(app: FastifyInstance, server: EmbeddedRealtimeServer) {
  await app.register(async (scope) => {
    // The signature covers the body's MD5, so these routes need the exact bytes that were sent.
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: server.options.maxPublishBytes * 2 + 64 * 1024 }, (_request, body, done) => done(null, body));

    const verified = (request: FastifyRequest<{ Params: { appId: string } }>): unknown => {
      verifySignature(server, request);
      try {
        return JSON.parse(String(request.body ?? ''));
      } catch {
        throw new ApiError(400, 'The request body is not valid JSON.', 'bad_request');
      }
    };

    scope.post<{ Params: { appId: string } }>('/apps/:appId/events', async (request) => {
      const body = parseBody(eventBody, verified(request));
      checkSize(server, body.data);
      const channels = body.channels ?? [body.channel!];
      server.publish(channels, body.name, body.data, body.socket_id);
      return {};
    });

    scope.post<{ Params: { appId: string } }>('/apps/:appId/batch_events', async (request) => {
      const { batch } = parseBody(batchBody, verified(request));
      for (const event of batch) checkSize(server, event.data);
      for (const event of batch) server.publish([event.channel], event.name, event.data, event.socket_id);
      return { batch: batch.map(() => ({})) };
    });

    // Channel information (the Pusher HTTP API's GET /channels/{name}): whether anyone is subscribed
    // and, asked with info=subscription_count, how many connections. Tests wait on it for a
    // subscription to be in place instead of waiting a fixed time (issue 32); operators can use it too.
    scope.get<{ Params: { appId: string; channel: string } }>('/apps/:appId/channels/:channel', async (request) => {
      verifySignature(server, request);
      const name = request.params.channel;
      if (!isValidChannelName(name)) throw validation(['channel: invalid channel name']);
      const info = String((request.query as { info?: unknown }).info ?? '').split(',');
      const count = server.registry.subscribers(name)?.size ?? 0;
      return { occupied: count > 0, ...(info.includes('subscription_count') ? { subscription_count: count } : {}) };
    });
  });
}

function checkSize(server: EmbeddedRealtimeServer, data: string) {
  const limit = server.options.maxPublishBytes;
  if (Buffer.byteLength(data, 'utf8') > limit) throw new ApiError(413, `Event data is too large: the limit is ${limit} bytes.`, 'too_large');
}

function verifySignature(server: EmbeddedRealtimeServer, request: FastifyRequest<{ Params: { appId: string } }>) {
  const { appId, key, secret } = server.options;
  if (request.params.appId !== appId) throw new ApiError(404, `Unknown app id: ${request.params.appId}.`, 'not_found');
  const query = (request.query ?? {}) as Record<string, string | string[]>;
  const single: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value)) throw unauthenticated(`parameter ${name} is repeated`);
    single[name] = value;
  }
  for (const name of ['auth_key', 'auth_timestamp', 'auth_version', 'auth_signature']) {
    if (!single[name]) throw unauthenticated(`${name} is missing`);
  }
  if (single.auth_key !== key) throw unauthenticated('unknown auth_key');
  if (single.auth_version !== '1.0') throw unauthenticated('auth_version must be 1.0');
  const timestamp = Number(single.auth_timestamp);
  const nowSec = server.options.now() / 1000;
  if (!Number.isFinite(timestamp) || Math.abs(nowSec - timestamp) > SIGNATURE_MAX_AGE_SEC) {
    throw unauthenticated(`auth_timestamp is more than ${SIGNATURE_MAX_AGE_SEC} s from the server time`);
  }
  const raw = typeof request.body === 'string' ? request.body : '';
  if (raw.length > 0 && single.body_md5 !== md5Hex(raw)) throw unauthenticated('body_md5 does not match the body');
  const path = request.url.split('?')[0]!;
  const expected = hmacHex(secret, httpSigningString(request.method, path, single));
  if (!safeEqual(expected, single.auth_signature!)) throw unauthenticated('invalid auth_signature');
}
