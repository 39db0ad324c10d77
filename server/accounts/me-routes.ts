import type { FastifyInstance } from 'fastify';
import { sql, type RawBuilder } from 'kysely';
import type { AppContext } from '../context';
import { ApiError, parseBody } from '../http/errors';
import { requireUser } from '../auth/guard';
import { requireRecentAuth } from '../auth/reauth';
import { deleteUpload, saveUpload } from '../files/storage';
import { readImageUpload } from '../files/upload';
import { EMAIL_TAKEN, findUserByEmail, normalizeEmail, profileOf } from './service';
import { issueAccountToken } from './mail-tokens';
import { sendEmailChangedNotice, sendPasswordChangedNotice, sendVerificationMail } from './mails';
import { hashPassword, verifyPassword } from './password';
import { revokeAllSessions } from '../auth/tokens';
import type { AccountLimits } from './limits';
import { changeEmailBody, changePasswordBody, profileBody } from './validators';

/**
 * Preferences merge key by key in one SQL expression (two tabs saving different keys at once both
 * keep theirs); a key sent as null is removed.
 */
function mergedPreferences(patch: Record<string, unknown>): RawBuilder<string> {
  const set = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== null && value !== undefined));
  let expr: RawBuilder<string> = sql`(preferences || ${JSON.stringify(set)}::jsonb)`;
  for (const [key, value] of Object.entries(patch)) if (value === null) expr = sql`(${expr} - ${key}::text)`;
  return expr;
}

const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === '23505';

/** The signed-in user's own profile: GET/PUT /api/me, PUT /api/me/email and /password, POST/DELETE /api/me/photo. */
export function meRoutes(app: FastifyInstance, ctx: AppContext, limits: AccountLimits) {
  app.get('/api/me', async (request) => profileOf(await requireUser(ctx.db, request)));

  app.put('/api/me', async (request) => {
    const user = await requireUser(ctx.db, request);
    const body = parseBody(profileBody, request.body);
    const updated = await ctx.db
      .updateTable('users')
      .set({
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.locale !== undefined ? { locale: body.locale } : {}),
        ...(body.timezone !== undefined ? { timezone: body.timezone } : {}),
        ...(body.start_of_week !== undefined ? { start_of_week: body.start_of_week } : {}),
        ...(body.theme !== undefined ? { theme: body.theme } : {}),
        ...(body.preferences !== undefined ? { preferences: mergedPreferences(body.preferences) } : {}),
        updated_at: ctx.now(),
      })
      .where('id', '=', user.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return profileOf(updated);
  });

  // The new address takes effect at once but is unverified until its link is opened; the old
  // address is told. Needs the password within 30 minutes (an account-takeover step otherwise).
  // Every other session is signed out (decision 0093): one opened with the old address ends.
  app.put('/api/me/email', async (request) => {
    const user = await requireUser(ctx.db, request);
    const body = parseBody(changeEmailBody, request.body);
    requireRecentAuth(ctx, request, user);
    const email = normalizeEmail(body.email);
    if (email === normalizeEmail(user.email)) {
      throw new ApiError(422, 'Validation Error: email: is already your email address', 'validation', ['email: is already your email address']);
    }
    const taken = await findUserByEmail(ctx.db, email);
    if (taken) throw new ApiError(422, EMAIL_TAKEN, 'validation', [`email: ${EMAIL_TAKEN}`]);
    let updated;
    try {
      updated = await ctx.db
        .updateTable('users')
        .set({ email, email_verified_at: null, updated_at: ctx.now() })
        .where('id', '=', user.id)
        .returningAll()
        .executeTakeFirstOrThrow();
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError(422, EMAIL_TAKEN, 'validation', [`email: ${EMAIL_TAKEN}`]);
      throw error;
    }
    await revokeAllSessions(ctx.db, user.id, ctx.now(), request.sessionId);
    const token = await issueAccountToken(ctx, 'verify_email', user.id, email);
    await sendVerificationMail(ctx, email, token);
    await sendEmailChangedNotice(ctx, user.email, email);
    return profileOf(updated);
  });

  // Knowing the current password is the proof here; every other session is signed out.
  app.put('/api/me/password', async (request, reply) => {
    const user = await requireUser(ctx.db, request);
    const body = parseBody(changePasswordBody, request.body);
    const key = String(user.id);
    // Counted before the hash is checked, like reauthentication (same counter).
    const attempt = await limits.take(reply, ['reauthPerUser', key]);
    if (!user.password_hash) {
      await attempt.giveBack();
      throw new ApiError(422, 'Your account does not use a password.', 'no_password');
    }
    if (!(await verifyPassword(body.current_password, user.password_hash))) {
      throw new ApiError(422, 'Validation Error: current_password: is incorrect', 'validation', ['current_password: is incorrect']);
    }
    await limits.clear('reauthPerUser', key);
    const now = ctx.now();
    await ctx.db.updateTable('users').set({ password_hash: await hashPassword(body.password), reauthenticated_at: now, updated_at: now }).where('id', '=', user.id).execute();
    await revokeAllSessions(ctx.db, user.id, now, request.sessionId);
    await sendPasswordChangedNotice(ctx, user.email);
    return { message: 'Your password has been changed. Other sessions were signed out.' };
  });

  app.post('/api/me/photo', async (request) => {
    const user = await requireUser(ctx.db, request);
    const image = await readImageUpload(request, 'photo');
    const url = await saveUpload(ctx, 'photos', image.data, image.ext);
    const updated = await ctx.db.updateTable('users').set({ photo_url: url, updated_at: ctx.now() }).where('id', '=', user.id).returningAll().executeTakeFirstOrThrow();
    await deleteUpload(ctx, user.photo_url);
    return profileOf(updated);
  });

  app.delete('/api/me/photo', async (request) => {
    const user = await requireUser(ctx.db, request);
    const updated = await ctx.db.updateTable('users').set({ photo_url: null, updated_at: ctx.now() }).where('id', '=', user.id).returningAll().executeTakeFirstOrThrow();
    await deleteUpload(ctx, user.photo_url);
    return profileOf(updated);
  });
}
