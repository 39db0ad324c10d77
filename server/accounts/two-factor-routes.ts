import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { ApiError, parseBody } from '../http/errors';
import { requireUser } from '../auth/guard';
import { requireRecentAuth } from '../auth/reauth';
import { revokeAllSessions } from '../auth/tokens';
import type { AccountLimits } from './limits';
import { confirmTwoFactor, disableTwoFactor, regenerateRecoveryCodes, startTwoFactor } from './two-factor';
import { codeBody } from './validators';

/**
 * Two-factor settings (profile.twoFactor): status, start (secret + QR), confirm with a code (then
 * the recovery codes are shown, once), new recovery codes, disable. Changes need a recent password.
 * Turning it on signs out every other session.
 */
export function twoFactorRoutes(app: FastifyInstance, ctx: AppContext, limits: AccountLimits) {
  app.get('/api/me/two-factor', async (request) => {
    const user = await requireUser(ctx.db, request);
    return {
      enabled: user.totp_enabled_at !== null,
      pending_confirmation: user.totp_enabled_at === null && user.totp_secret !== null,
      recovery_codes_left: user.totp_enabled_at ? (user.recovery_codes ?? []).length : 0,
    };
  });

  app.post('/api/me/two-factor', async (request) => {
    const user = await requireUser(ctx.db, request);
    requireRecentAuth(ctx, request, user);
    return startTwoFactor(ctx, user);
  });

  app.post('/api/me/two-factor/confirm', async (request, reply) => {
    const user = await requireUser(ctx.db, request);
    const body = parseBody(codeBody, request.body);
    requireRecentAuth(ctx, request, user);
    // Counted before the code is checked: parallel guesses cannot all pass the limit.
    const attempt = await limits.take(reply, ['twoFactorPerUser', String(user.id)]);
    let codes: string[];
    try {
      codes = await confirmTwoFactor(ctx, user, body.code);
    } catch (error) {
      // A wrong code stays counted; "already enabled" or "start first" guessed nothing.
      if (!(error instanceof ApiError && error.type === 'two_factor_invalid')) await attempt.giveBack();
      throw error;
    }
    await attempt.giveBack();
    // A session opened with the password alone does not outlive two-factor (decision 0093).
    await revokeAllSessions(ctx.db, user.id, ctx.now(), request.sessionId);
    return { recovery_codes: codes };
  });

  app.post('/api/me/two-factor/recovery-codes', async (request) => {
    const user = await requireUser(ctx.db, request);
    requireRecentAuth(ctx, request, user);
    return { recovery_codes: await regenerateRecoveryCodes(ctx, user) };
  });

  app.delete('/api/me/two-factor', async (request) => {
    const user = await requireUser(ctx.db, request);
    requireRecentAuth(ctx, request, user);
    await disableTwoFactor(ctx, user);
    return { enabled: false };
  });
}
