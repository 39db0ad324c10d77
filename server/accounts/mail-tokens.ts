import crypto from 'node:crypto';
import type { AppContext } from '../context';
import type { AccountTokenKind } from '../db/tables/accounts';
import { hashToken } from '../auth/tokens';

/** How long a mailed link works. A reset link is short-lived; a verification link can wait a day. */
export const TOKEN_TTL_MS: Record<AccountTokenKind, number> = {
  password_reset: 60 * 60 * 1000,
  verify_email: 24 * 60 * 60 * 1000,
};

/**
 * Creates a single-use token of a kind for a user and address. Earlier unused tokens of the same
 * kind stop working, so only the newest mail's link is valid.
 */
export async function issueAccountToken(ctx: AppContext, kind: AccountTokenKind, userId: number, email: string): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url');
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    // Older tokens of this kind (used, expired or superseded) go: the table holds one live row per user and kind.
    await trx.deleteFrom('account_tokens').where('user_id', '=', userId).where('kind', '=', kind).execute();
    await trx
      .insertInto('account_tokens')
      .values({ kind, user_id: userId, email, token_hash: hashToken(token), expires_at: new Date(now.getTime() + TOKEN_TTL_MS[kind]), created_at: now })
      .execute();
  });
  return token;
}

/**
 * Uses up a token: returns its user and address once, and null when the token is unknown, of
 * another kind, already used or expired. One conditional update, so two clicks cannot both win.
 */
export async function consumeAccountToken(ctx: AppContext, kind: AccountTokenKind, token: string): Promise<{ userId: number; email: string } | null> {
  const now = ctx.now();
  const row = await ctx.db
    .updateTable('account_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', hashToken(token))
    .where('kind', '=', kind)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id', 'email'])
    .executeTakeFirst();
  return row ? { userId: row.user_id, email: row.email } : null;
}

/** The token's row without using it up (to check that a reset link matches its email first). */
export async function peekAccountToken(ctx: AppContext, kind: AccountTokenKind, token: string) {
  return ctx.db
    .selectFrom('account_tokens')
    .select(['user_id', 'email', 'used_at', 'expires_at'])
    .where('token_hash', '=', hashToken(token))
    .where('kind', '=', kind)
    .executeTakeFirst();
}
