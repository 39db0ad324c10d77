import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { AppContext } from '../context';
import type { Database } from '../db/types';
import type { UserPreferences } from '../db/tables/accounts';
import type { UserRow } from '../auth/guard';
import { ApiError } from '../http/errors';
import { hashPassword } from './password';

export { requireRecentAuth, requireVerifiedEmail } from '../auth/reauth';

type Db = Kysely<Database> | Transaction<Database>;

export const EMAIL_TAKEN = 'The email has already been taken.';
export const DEFAULT_LOCALE = 'en-US';

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** The user with this email (any case), or undefined. */
export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where(sql<string>`lower(email)`, '=', normalizeEmail(email)).executeTakeFirst();
}

export function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Every account owns a subscription; a new one starts on the free plan with its limits copied. */
export async function ensureFreeSubscription(db: Db, userId: number, now: Date): Promise<void> {
  const existing = await db.selectFrom('subscriptions').select('id').where('user_id', '=', userId).executeTakeFirst();
  if (existing) return;
  const plan = await db.selectFrom('plans').select(['id', 'version', 'limits']).where('id', '=', 'free').executeTakeFirstOrThrow();
  await db
    .insertInto('subscriptions')
    .values({ user_id: userId, deal: plan.id, limits: JSON.stringify(plan.limits), version: plan.version, created_at: now })
    .execute();
}

export interface NewUser {
  email: string;
  name: string;
  /** null makes a pending account (an invited person who has not signed up yet). */
  password: string | null;
  locale?: string;
  source?: string | null;
  /** Mark the address verified (demo data, invitations accepted from the mail). */
  verified?: boolean;
}

const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === '23505';

/**
 * Creates an account with its free-plan subscription, in one transaction. Used by registration,
 * the demo seed and invitations (pending users with `password: null`). A taken email is a 422.
 */
export async function createUser(ctx: AppContext, input: NewUser, db: Kysely<Database> = ctx.db): Promise<UserRow> {
  const passwordHash = input.password === null ? null : await hashPassword(input.password);
  const now = ctx.now();
  try {
    return await db.transaction().execute(async (trx) => {
      if (await findUserByEmail(trx, input.email)) throw new ApiError(422, EMAIL_TAKEN, 'validation', [`email: ${EMAIL_TAKEN}`]);
      const user = await trx
        .insertInto('users')
        .values({
          email: normalizeEmail(input.email),
          name: input.name.trim(),
          password_hash: passwordHash,
          locale: input.locale ?? DEFAULT_LOCALE,
          source: input.source ?? null,
          theme: 2,
          preferences: JSON.stringify({}),
          recovery_codes: JSON.stringify([]),
          email_verified_at: input.verified ? now : null,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await ensureFreeSubscription(trx, user.id, now);
      return user;
    });
  } catch (error) {
    // Two registrations racing for one address: the unique index decides, the loser gets a 422.
    if (isUniqueViolation(error)) throw new ApiError(422, EMAIL_TAKEN, 'validation', [`email: ${EMAIL_TAKEN}`]);
    throw error;
  }
}

/**
 * Turns a pending (invited) account into a real one: sets the name and password, marks the email
 * verified (the invitation mail reached it) and makes sure it has its subscription. Fails with a
 * 422 when the account already has a password (it was claimed before).
 */
export async function claimInvitedUser(
  ctx: AppContext,
  input: { userId: number; name: string; password: string; locale?: string; source?: string | null },
): Promise<UserRow> {
  const passwordHash = await hashPassword(input.password);
  const now = ctx.now();
  return ctx.db.transaction().execute(async (trx) => {
    const user = await trx
      .updateTable('users')
      .set({
        name: input.name.trim(),
        password_hash: passwordHash,
        ...(input.locale ? { locale: input.locale } : {}),
        ...(input.source !== undefined ? { source: input.source } : {}),
        email_verified_at: sql`coalesce(email_verified_at, ${now})`,
        updated_at: now,
      })
      .where('id', '=', input.userId)
      .where('password_hash', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (!user) throw new ApiError(422, EMAIL_TAKEN, 'validation', [`email: ${EMAIL_TAKEN}`]);
    await ensureFreeSubscription(trx, user.id, now);
    return user;
  });
}

/** The profile of workspace.md §3 as GET /api/me answers it, plus account-state flags. */
export interface Profile {
  id: number;
  name: string;
  email: string;
  photo_url: string | null;
  guest: false;
  preferences: UserPreferences;
  locale: string;
  start_of_week: number | null;
  timezone: string | null;
  theme: number;
  survey: unknown;
  email_verified: boolean;
  email_verified_at: string | null;
  two_factor_enabled: boolean;
  has_password: boolean;
  created_at: string;
}

export function profileOf(user: Selectable<Database['users']>): Profile {
  const preferences = (user.preferences ?? {}) as UserPreferences;
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    photo_url: user.photo_url,
    guest: false,
    preferences,
    locale: user.locale,
    start_of_week: user.start_of_week,
    timezone: user.timezone,
    theme: user.theme,
    survey: preferences.survey ?? null,
    email_verified: user.email_verified_at !== null,
    email_verified_at: user.email_verified_at ? new Date(user.email_verified_at).toISOString() : null,
    two_factor_enabled: user.totp_enabled_at !== null,
    has_password: user.password_hash !== null,
    created_at: new Date(user.created_at).toISOString(),
  };
}
