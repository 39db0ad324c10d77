import type { AppContext } from '../../server/context';
import { issueTokens } from '../../server/auth/tokens';

let counter = 0;

/**
 * Inserts a verified user directly and signs them in, for suites that are not about accounts.
 * Account suites use the real register/login endpoints instead.
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
  return { user, token: tokens.access_token, tokens };
}
