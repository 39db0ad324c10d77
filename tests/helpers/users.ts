import type { AppContext } from '../../server/context';
import { hashToken, issueTokens } from '../../server/auth/tokens';

/**
 * How long the access token of a helper-made user stays good on the server: longer than any test
 * moves the clock (`server.advance`). With the real hour, a test that moved the clock by nearly an
 * hour in steps aligned to the wall clock (mail windows) found its token expired or not depending
 * on the minute the run started and how long it took: a 401 mid-test on a busy machine. Suites
 * about expiry sign in through the real endpoints (sessions, accounts-auth) and keep the real hour.
 */
export const TEST_ACCESS_TOKEN_TTL_MS = 10 * 365 * 24 * 60 * 60 * 1000;

let counter = 0;

/**
 * Inserts a verified user directly and signs them in, for suites that are not about accounts.
 * Account suites use the real register/login endpoints instead. The returned token record is what
 * sign-in answers (a client refreshes on its own schedule); the server keeps the access token alive
 * for TEST_ACCESS_TOKEN_TTL_MS, so a moved clock never ends the session mid-test.
 */
export async function createUserWithToken(ctx: AppContext, opts: { email?: string; name?: string } = {}) {
  counter += 1;
  const email = opts.email ?? `user${counter}-${Math.random().toString(36).slice(2, 8)}@example.test`;
  const user = await ctx.db
    .insertInto('users')
    .values({
      email,
      name: opts.name ?? `User ${counter}`,
      password_hash: null,
      locale: 'en-US',
      theme: 2,
      preferences: JSON.stringify({}),
      recovery_codes: JSON.stringify([]),
      email_verified_at: ctx.now(),
      created_at: ctx.now(),
      updated_at: ctx.now(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const tokens = await issueTokens(ctx.db, user.id, ctx.now());
  await ctx.db
    .updateTable('access_tokens')
    .set({ expires_at: new Date(ctx.now().getTime() + TEST_ACCESS_TOKEN_TTL_MS) })
    .where('access_hash', '=', hashToken(tokens.access_token))
    .execute();
  return { user, token: tokens.access_token, tokens };
}
