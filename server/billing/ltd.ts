import { randomInt } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/types';
import { ApiError } from '../http/errors';
import { Messages } from '../../schema/messages';
import { ownedSubscriptions, type SubscriptionRow } from '../workspaces/subscriptions';
import { getPlan, isPaid, limitsOf, listPlans } from './plans';
import type { LtdCodeView } from '../../schema/billing';

/**
 * Lifetime-deal codes (issue #18, decision 0255): an operator generates codes with the ltd CLI
 * (server/billing/ltd-cli.ts, docs/operations.md "Lifetime deals"); a signed-in user redeems one at
 * /activate-ltd/{code}. A code is redeemed once; the subscription moves onto the code's plan (`ltd`)
 * with that plan's limits and no end date.
 */

type Db = Kysely<Database> | Transaction<Database>;

/** No 0/O/1/I/L: codes are read off a screen or a receipt and typed. */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export function newLtdCode(): string {
  let out = '';
  for (let i = 0; i < 16; i++) {
    if (i > 0 && i % 4 === 0) out += '-';
    out += ALPHABET[randomInt(ALPHABET.length)];
  }
  return out;
}

/** Codes are compared upper-case without spaces, so "abcd-efgh…" typed by hand still matches. */
export function normaliseLtdCode(raw: string): string {
  return raw.trim().toUpperCase().replace(/\s+/g, '');
}

export async function generateLtdCodes(db: Db, count: number, opts: { plan?: string; note?: string | null; now: Date }): Promise<string[]> {
  const planId = opts.plan ?? 'ltd';
  if (!Number.isInteger(count) || count < 1 || count > 10000) throw new Error('count must be a whole number from 1 to 10000');
  const plan = await getPlan(db, planId);
  if (!plan) throw new Error(`no plan ${planId}`);
  const codes = new Set<string>();
  while (codes.size < count) codes.add(newLtdCode());
  const list = [...codes];
  for (let i = 0; i < list.length; i += 500) {
    await db
      .insertInto('ltd_codes')
      .values(list.slice(i, i + 500).map((code) => ({ code, plan: planId, note: opts.note ?? null, created_at: opts.now })))
      .execute();
  }
  return list;
}

/** The answer's shape is shared with the app: schema/billing.ts. */
export type { LtdCodeView };

export async function ltdCodeView(db: Db, rawCode: string, userId: number | null): Promise<LtdCodeView> {
  const code = normaliseLtdCode(rawCode);
  const row = await db.selectFrom('ltd_codes').selectAll().where('code', '=', code).executeTakeFirst();
  if (!row) throw new ApiError(404, Messages.ltdCodeUnknown, 'ltd_code_unknown');
  const plan = await getPlan(db, row.plan);
  const mine = row.redeemed_by !== null && row.redeemed_by === userId;
  return {
    code: row.code,
    plan: row.plan,
    plan_name: plan?.name ?? row.plan,
    redeemed: row.redeemed_at !== null,
    redeemed_by_you: mine,
    subscription_id: mine ? row.subscription_id : null,
  };
}

/**
 * Redeems a code for the user. The subscription it goes on: the user's first one that was not
 * bought (the free plan, a trial or an expired trial); when every one is a bought plan, a new
 * subscription (codes stack: each gives one lifetime subscription). The code row is locked, so two
 * redemptions at once give one winner.
 */
export async function redeemLtdCode(db: Kysely<Database>, userId: number, rawCode: string, now: Date): Promise<SubscriptionRow> {
  const code = normaliseLtdCode(rawCode);
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('ltd_codes').selectAll().where('code', '=', code).forUpdate().executeTakeFirst();
    if (!row) throw new ApiError(404, Messages.ltdCodeUnknown, 'ltd_code_unknown');
    if (row.redeemed_at) throw new ApiError(422, Messages.ltdCodeUsed, 'ltd_code_used');
    const plan = await getPlan(trx, row.plan);
    if (!plan) throw new ApiError(422, Messages.planNotFound, 'plan_not_found');
    const owned = await ownedSubscriptions(trx, userId, now, { lock: true });
    const plans = new Map((await listPlans(trx, { includeArchived: true })).map((p) => [p.id, p]));
    const notBought = owned.find((s) => s.trial_ends_at !== null || !isPaid(plans.get(s.deal) ?? { id: s.deal, prices: [] }));
    const values = { deal: plan.id, limits: JSON.stringify(limitsOf(plan.limits)), version: plan.version, trial_ends_at: null, ends_at: null };
    const sub = notBought
      ? await trx.updateTable('subscriptions').set(values).where('id', '=', notBought.id).returningAll().executeTakeFirstOrThrow()
      : await trx.insertInto('subscriptions').values({ ...values, user_id: userId, created_at: now }).returningAll().executeTakeFirstOrThrow();
    await trx.updateTable('ltd_codes').set({ redeemed_at: now, redeemed_by: userId, subscription_id: sub.id }).where('code', '=', code).execute();
    return sub;
  });
}
