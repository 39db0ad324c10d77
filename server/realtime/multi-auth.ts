import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context';
import { optionalUser } from '../auth/guard';
import { parseBody, unauthenticated } from '../http/errors';
import { Messages } from '../../schema/messages';
import { AccessChecker, grantFor } from './channel-access';
import { isValidSocketId } from './server';
import { embeddedServerOf } from './broadcaster';
import { signSubscription } from './signature';

/** Most channels one multi-auth call may ask for (a client batches 2 s of subscriptions). */
export const MULTI_AUTH_MAX_CHANNELS = 200;

const body = z.object({
  socketId: z.string().refine(isValidSocketId, 'socketId must be a Pusher socket id such as 123.456'),
  channelNames: z.array(z.string().min(1).max(200)).min(1).max(MULTI_AUTH_MAX_CHANNELS),
});

export type MultiAuthEntry = { status: 200; data: { auth: string; channel_data?: string } } | { status: 403; data: { message: string } };

/**
 * POST /api/broadcasting/multi-auth {socketId, channelNames[]} → {[channel]: {status, data}}.
 * Each channel is answered on its own: 200 with the subscription signature, or 403. Guests (no
 * bearer token) are refused every channel; a bearer token that is no longer valid is a 401 so the
 * client refreshes its token and asks again.
 */
export function multiAuthRoutes(app: FastifyInstance, ctx: AppContext) {
  app.post('/api/broadcasting/multi-auth', async (request) => {
    const { socketId, channelNames } = parseBody(body, request.body);
    const user = await optionalUser(ctx.db, request);
    if (!user && request.headers.authorization) throw unauthenticated();

    const { key, secret } = ctx.config.pusher;
    const refused: MultiAuthEntry = { status: 403, data: { message: Messages.unauthorized } };
    const answer: Record<string, MultiAuthEntry> = {};
    const check = user ? new AccessChecker(ctx, user.id) : null;
    // The embedded server learns whose subscription each signature is (decision 0090).
    const embedded = embeddedServerOf(ctx.broadcaster);
    const holder = user ? { userId: user.id, sessionId: request.sessionId ?? null } : null;
    for (const channel of new Set(channelNames)) {
      const grant = check && user ? await grantFor(check, user.id, channel) : null;
      if (!grant || !user) {
        answer[channel] = refused;
        continue;
      }
      if (holder) embedded?.grant(socketId, channel, holder);
      if (grant.presence) {
        const channelData = JSON.stringify({ user_id: String(user.id), user_info: { name: user.name } });
        answer[channel] = { status: 200, data: { auth: signSubscription(key, secret, socketId, channel, channelData), channel_data: channelData } };
      } else {
        answer[channel] = { status: 200, data: { auth: signSubscription(key, secret, socketId, channel) } };
      }
    }
    return answer;
  });
}
