import { sql } from 'kysely';
import type { AppContext } from '../context';
import type { UserRow } from '../auth/guard';
import { ApiError } from '../http/errors';
import { hashRecoveryCode, matchingStep, newRecoveryCodes, newTotpSecret, provisioning } from './totp';

export const TWO_FACTOR_REQUIRED = 'Enter the code from your authenticator app or a recovery code.';
export const TWO_FACTOR_INVALID = 'The two-factor code is not valid.';

/**
 * Accepts a TOTP code for a user at most once: the step is stored in users.totp_last_step and a
 * code of that step or an earlier one is refused from then on (one conditional update, race-free).
 */
export async function acceptTotp(ctx: AppContext, user: UserRow, code: string, secret = user.totp_secret): Promise<boolean> {
  if (!secret) return false;
  const step = matchingStep(secret, code, ctx.now());
  if (step === null) return false;
  const row = await ctx.db
    .updateTable('users')
    .set({ totp_last_step: step })
    .where('id', '=', user.id)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Uses up one recovery code; false when it is not (or no longer) among the user's codes. */
export async function acceptRecoveryCode(ctx: AppContext, user: UserRow, code: string): Promise<boolean> {
  const hash = hashRecoveryCode(code);
  // Removing the element in the WHERE-guarded update makes a second use of the same code fail.
  const row = await ctx.db
    .updateTable('users')
    .set({ recovery_codes: sql`recovery_codes - ${hash}::text` })
    .where('id', '=', user.id)
    .where(sql<boolean>`recovery_codes ? ${hash}::text`)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The second step of a login for a user with two-factor on; throws 422 when missing or wrong. */
export async function checkSecondFactor(ctx: AppContext, user: UserRow, given: { totp?: string | null; recoveryCode?: string | null }): Promise<void> {
  if (!user.totp_enabled_at) return;
  if (given.totp) {
    if (await acceptTotp(ctx, user, given.totp)) return;
    throw new ApiError(422, TWO_FACTOR_INVALID, 'two_factor_invalid', [`totp: ${TWO_FACTOR_INVALID}`]);
  }
  if (given.recoveryCode) {
    if (await acceptRecoveryCode(ctx, user, given.recoveryCode)) return;
    throw new ApiError(422, 'The recovery code is not valid or was already used.', 'two_factor_invalid', ['recoveryCode: The recovery code is not valid or was already used.']);
  }
  throw new ApiError(422, TWO_FACTOR_REQUIRED, 'two_factor_required');
}

/** Step 1 of enabling: a new secret is stored (not yet active) and its QR code returned. */
export async function startTwoFactor(ctx: AppContext, user: UserRow) {
  if (user.totp_enabled_at) throw new ApiError(422, 'Two-factor authentication is already enabled.', 'validation');
  const secret = newTotpSecret();
  await ctx.db.updateTable('users').set({ totp_secret: secret, totp_last_step: null, updated_at: ctx.now() }).where('id', '=', user.id).execute();
  return { secret, ...(await provisioning(secret, user.email)) };
}

/** Step 2: a code from the app proves it was set up; two-factor turns on and codes are shown once. */
export async function confirmTwoFactor(ctx: AppContext, user: UserRow, code: string): Promise<string[]> {
  if (user.totp_enabled_at) throw new ApiError(422, 'Two-factor authentication is already enabled.', 'validation');
  if (!user.totp_secret) throw new ApiError(422, 'Start two-factor setup first.', 'validation');
  if (!(await acceptTotp(ctx, user, code))) throw new ApiError(422, TWO_FACTOR_INVALID, 'two_factor_invalid', [`code: ${TWO_FACTOR_INVALID}`]);
  const codes = newRecoveryCodes();
  await ctx.db
    .updateTable('users')
    .set({ totp_enabled_at: ctx.now(), recovery_codes: JSON.stringify(codes.map(hashRecoveryCode)), updated_at: ctx.now() })
    .where('id', '=', user.id)
    .execute();
  return codes;
}

/** New recovery codes replace the old ones (which stop working). */
export async function regenerateRecoveryCodes(ctx: AppContext, user: UserRow): Promise<string[]> {
  if (!user.totp_enabled_at) throw new ApiError(422, 'Two-factor authentication is not enabled.', 'validation');
  const codes = newRecoveryCodes();
  await ctx.db.updateTable('users').set({ recovery_codes: JSON.stringify(codes.map(hashRecoveryCode)), updated_at: ctx.now() }).where('id', '=', user.id).execute();
  return codes;
}

export async function disableTwoFactor(ctx: AppContext, user: UserRow): Promise<void> {
  await ctx.db
    .updateTable('users')
    .set({ totp_secret: null, totp_enabled_at: null, totp_last_step: null, recovery_codes: JSON.stringify([]), updated_at: ctx.now() })
    .where('id', '=', user.id)
    .execute();
}
