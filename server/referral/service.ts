import crypto from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/types';
import type { AppContext } from '../context';
import { ApiError } from '../http/errors';
import { Messages } from '../../schema/messages';
import { normalizeEmail } from '../accounts/service';
import type { ConsumerContext, DomainEvent } from '../events/types';
import { MONEY_BACK_DAYS } from '../billing/cancellation';
import { referralCodeBody, referralCodeSchema, referralInviteBody, type ReferralView } from '../../schema/referral';

/**
 * The referral programme (workspace.md §7 "Referral", §9 "20 % of every purchase"; decision 0260).
 * Every user has one code; the link `{PUBLIC_URL}/register?ref={code}` brings sign-ups that are
 * attributed to them (one referrer per account, at registration), and 20 % of every invoice such
 * an account pays is credited to the referrer by the `referral-credits` consumer of
 * `invoice.paid` — one credit row per invoice (its primary key), so exactly once.
 */

type Db = Kysely<Database> | Transaction<Database>;

/** The referrer's share of a paid invoice: 20 %. */
export const REFERRAL_RATE = 0.2;
/** Addresses one invitation request may name, and one referrer may invite in 24 hours. */
export const INVITES_PER_REQUEST = 20;
export const INVITES_PER_DAY = 100;
/** The database throttle's rules (decision 0093): mails per sender a day, referral mails per recipient a week. */
export const INVITE_SENDER_RULE = { max: INVITES_PER_DAY, windowMs: 24 * 3600 * 1000 };
export const INVITE_RECIPIENT_RULE = { max: 1, windowMs: 7 * 24 * 3600 * 1000 };

/** The bodies and the view are shared with the app: schema/referral.ts. */
export { referralCodeSchema as codeSchema, referralCodeBody as putBody, referralInviteBody as inviteBody, type ReferralView };

export function referralLink(ctx: Pick<AppContext, 'config'>, code: string): string {
  return `${ctx.config.publicUrl.replace(/\/+$/, '')}/register?ref=${encodeURIComponent(code)}`;
}

const randomCode = () => crypto.randomBytes(6).toString('base64url').toLowerCase().replace(/[^a-z0-9]/g, '').padEnd(8, '0').slice(0, 8);

/** The user's code, made on first ask (idempotent: two parallel asks end with one code). */
export async function ensureCode(db: Db, userId: number, now: Date): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const found = await db.selectFrom('referral_codes').select('code').where('user_id', '=', userId).executeTakeFirst();
    if (found) return found.code;
    await sql`insert into referral_codes (user_id, code, created_at) values (${userId}, ${randomCode()}, ${now}) on conflict do nothing`.execute(db);
  }
  throw new Error('could not make a referral code');
}

/** POST /api/referral: a new random code; links with the old one stop bringing sign-ups. */
export async function renewCode(db: Db, userId: number, now: Date): Promise<string> {
  await ensureCode(db, userId, now);
  for (let attempt = 0; attempt < 5; attempt++) {
    const code = randomCode();
    const { rows } = await sql<{ code: string }>`
      update referral_codes set code = ${code}, created_at = ${now} where user_id = ${userId}
        and not exists (select 1 from referral_codes where code = ${code}) returning code`.execute(db);
    if (rows[0]) return rows[0].code;
  }
  throw new Error('could not make a referral code');
}

/** PUT /api/referral {code}: a code of the user's choosing; one someone else has is refused. */
export async function setCode(db: Db, userId: number, code: string, now: Date): Promise<string> {
  await ensureCode(db, userId, now);
  const taken = await db.selectFrom('referral_codes').select('user_id').where('code', '=', code).executeTakeFirst();
  if (taken && taken.user_id !== userId) throw new ApiError(422, Messages.referralCodeTaken, 'validation', [`code: ${Messages.referralCodeTaken}`]);
  try {
    await db.updateTable('referral_codes').set({ code, created_at: now }).where('user_id', '=', userId).execute();
  } catch (error) {
    // Someone took it between the check and the write (the unique index said no).
    if (/unique|duplicate/i.test(String((error as Error).message))) throw new ApiError(422, Messages.referralCodeTaken, 'validation', [`code: ${Messages.referralCodeTaken}`]);
    throw error;
  }
  return code;
}

export async function referralView(ctx: Pick<AppContext, 'config'>, db: Db, userId: number, now: Date): Promise<ReferralView> {
  const code = await ensureCode(db, userId, now);
  const signups = await db.selectFrom('referrals').select((eb) => eb.fn.countAll<string>().as('n')).where('referrer_id', '=', userId).executeTakeFirstOrThrow();
  const invitations = await sql<{ email: string; sent_at: Date; times: number; joined: boolean }>`
    select i.email, i.sent_at, i.times,
      exists (select 1 from referrals r join users u on u.id = r.user_id where r.referrer_id = i.referrer_id and lower(u.email) = i.email) as joined
    from referral_invitations i where i.referrer_id = ${userId} order by i.sent_at desc limit 200`.execute(db);
  // A credit whose invoice was refunded is no credit; one still in the refund window is held.
  const notRefunded = sql<boolean>`not exists (select 1 from invoices i where i.id::text = referral_credits.invoice_id and i.status = 'refunded')`;
  const earnings = await db
    .selectFrom('referral_credits')
    .select(['currency', (eb) => eb.fn.sum<string>('amount').as('amount')])
    .where('referrer_id', '=', userId)
    .where(notRefunded)
    .where((eb) => eb.or([eb('available_at', 'is', null), eb('available_at', '<=', now)]))
    .groupBy('currency')
    .orderBy('currency')
    .execute();
  const held = await db
    .selectFrom('referral_credits')
    .select(['currency', (eb) => eb.fn.sum<string>('amount').as('amount')])
    .where('referrer_id', '=', userId)
    .where(notRefunded)
    .where('available_at', '>', now)
    .groupBy('currency')
    .orderBy('currency')
    .execute();
  const credits = await db.selectFrom('referral_credits').selectAll().where('referrer_id', '=', userId).where(notRefunded).orderBy('created_at', 'desc').orderBy('invoice_id').limit(100).execute();
  return {
    code,
    link: referralLink(ctx, code),
    rate: REFERRAL_RATE,
    signups: Number(signups.n),
    invitations: invitations.rows.map((r) => ({ email: r.email, sent_at: new Date(r.sent_at).toISOString(), times: Number(r.times), joined: Boolean(r.joined) })),
    earnings: earnings.map((e) => ({ currency: e.currency, amount: Number(e.amount) })),
    held: held.map((e) => ({ currency: e.currency, amount: Number(e.amount) })),
    credits: credits.map((c) => ({ invoice_id: c.invoice_id, amount: Number(c.amount), invoice_amount: Number(c.invoice_amount), currency: c.currency, created_at: new Date(c.created_at).toISOString(), available_at: c.available_at ? new Date(c.available_at).toISOString() : null })),
  };
}

/**
 * The addresses of an invitation: one text with addresses separated by commas, spaces, semicolons
 * or new lines, or a list. Any that is not an address refuses the whole request (naming it), so
 * nobody is mailed by half a typo.
 */
export function parseEmails(input: string | string[]): string[] {
  const parts = (Array.isArray(input) ? input : [input]).flatMap((s) => s.split(/[\s,;]+/)).map((s) => s.trim()).filter(Boolean);
  if (parts.length === 0) throw new ApiError(422, Messages.validationPrefix + `emails: ${Messages.referralEmailsInvalid}`, 'validation', [`emails: ${Messages.referralEmailsInvalid}`]);
  const email = z.email();
  const bad = parts.filter((p) => p.length > 254 || !email.safeParse(p).success);
  if (bad.length) {
    const problems = bad.slice(0, 10).map((b) => `emails: "${b.slice(0, 80)}" is not an email address. ${Messages.referralEmailsInvalid}`);
    throw new ApiError(422, Messages.validationPrefix + problems.join('; '), 'validation', problems);
  }
  const unique = [...new Set(parts.map(normalizeEmail))];
  if (unique.length > INVITES_PER_REQUEST) {
    const problem = `emails: at most ${INVITES_PER_REQUEST} addresses at a time`;
    throw new ApiError(422, Messages.validationPrefix + problem, 'validation', [problem]);
  }
  return unique;
}

/**
 * Attributes a new account to the owner of `code` (the link it came through). An unknown code,
 * or the account's own, is ignored: a stale link must not stop anyone from signing up.
 */
export async function attributeSignup(db: Db, userId: number, code: string | undefined | null, now: Date, ip?: string): Promise<number | null> {
  // Every account's sign-up address is kept: a later referral pair that shares it earns nothing (N12).
  if (ip) await sql`insert into signup_addresses (user_id, ip, created_at) values (${userId}, ${ip}, ${now}) on conflict do nothing`.execute(db);
  if (!code) return null;
  const parsed = referralCodeSchema.safeParse(code);
  if (!parsed.success) return null;
  const owner = await db.selectFrom('referral_codes').select('user_id').where('code', '=', parsed.data).executeTakeFirst();
  if (!owner || owner.user_id === userId) return null;
  await sql`insert into referrals (user_id, referrer_id, code, created_at) values (${userId}, ${owner.user_id}, ${parsed.data}, ${now}) on conflict do nothing`.execute(db);
  return owner.user_id;
}

/**
 * The `referral-credits` consumer: an `invoice.paid` of an account that came through someone's
 * link credits 20 % of the invoice (rounded to whole minor units) to that referrer. The invoice id
 * is the credit's primary key, so a redelivered event credits nothing twice.
 */
export async function referralCreditsForEvent(event: DomainEvent, c: ConsumerContext): Promise<void> {
  if (event.type !== 'invoice.paid') return;
  const p = (event.after ?? {}) as Record<string, unknown>;
  const invoiceId = String(p.invoice_id ?? event.record_id ?? '');
  const userId = Number(p.user_id);
  const amount = Number(p.amount);
  const currency = String(p.currency ?? '').toUpperCase();
  if (!invoiceId || !Number.isSafeInteger(userId) || !Number.isFinite(amount) || amount <= 0 || !/^[A-Z]{3}$/.test(currency)) return;
  const referral = await c.db.selectFrom('referrals').select('referrer_id').where('user_id', '=', userId).executeTakeFirst();
  if (!referral) return;
  if (await samePerson(c.db, referral.referrer_id, userId)) return;
  const credit = Math.round(amount * REFERRAL_RATE);
  // Held until the invoice is past its refund window; a refunded invoice never becomes earnings.
  const availableAt = new Date(c.now().getTime() + MONEY_BACK_DAYS * 24 * 3600 * 1000);
  await sql`
    insert into referral_credits (invoice_id, referrer_id, user_id, invoice_amount, amount, currency, created_at, available_at)
    values (${invoiceId}, ${referral.referrer_id}, ${userId}, ${Math.round(amount)}, ${credit}, ${currency}, ${c.now()}, ${availableAt})
    on conflict (invoice_id) do nothing`.execute(c.db);
}

/**
 * A referrer and the account they referred that look like one person earn no credit (N12): the
 * same sign-up address, or a saved card alike in brand, last four digits and expiry (the card's
 * fingerprint as far as this server stores it).
 */
export async function samePerson(db: Db, referrerId: number, userId: number): Promise<boolean> {
  const { rows } = await sql<{ same: boolean }>`
    select exists (
      select 1 from signup_addresses a join signup_addresses b on a.ip = b.ip
      where a.user_id = ${referrerId} and b.user_id = ${userId}
    ) or exists (
      select 1 from payment_methods a join payment_methods b
        on a.brand = b.brand and a.last4 = b.last4 and a.exp_month = b.exp_month and a.exp_year = b.exp_year
      where a.user_id = ${referrerId} and b.user_id = ${userId}
    ) as same`.execute(db);
  return Boolean(rows[0]?.same);
}
