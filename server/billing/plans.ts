import { z } from 'zod';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from '../db/types';
import { limitsSchema, priceSchema, PRICE_INTERVALS, type PlanLimits, type PlanPrice as Price, type PlanView } from '../../schema/billing';

export { limitsSchema, priceSchema, PRICE_INTERVALS, type PlanLimits, type Price, type PlanView };

/**
 * The plan catalogue (issue #18 part 1, decision 0240): plans are rows of `plans`, seeded by
 * migration 0240 and edited with the plans CLI (server/billing/cli.ts, docs/operations.md).
 * Prices are in minor units (cents). Limits: workspaces, members, storage (GB),
 * AutomationRunsLimit (runs a month), WhitelabelLimit, proViews (Pro-only views allowed).
 */

type Db = Kysely<Database> | Transaction<Database>;
export type PlanRow = Selectable<Database['plans']>;

export const LIMIT_NAMES = ['workspaces', 'members', 'storage', 'AutomationRunsLimit', 'WhitelabelLimit'] as const;

export const planSchema = z
  .object({
    id: z.string().trim().min(1, 'is required').max(40).regex(/^[a-z0-9-]+$/, 'must be lower-case letters, digits and dashes'),
    name: z.string().trim().min(1, 'is required').max(60),
    version: z.number().int().min(1),
    level: z.number().int().min(0),
    tier: z.number().int().min(0),
    position: z.number().int().min(0).default(0),
    isUpgradable: z.boolean().default(true),
    archived: z.boolean().default(false),
    prices: z.array(priceSchema),
    limits: limitsSchema,
  })
  .superRefine((plan, issue) => {
    const ids = new Set<string>();
    for (const price of plan.prices) {
      if (ids.has(price.id)) issue.addIssue({ code: 'custom', path: ['prices'], message: `price id ${price.id} appears twice` });
      ids.add(price.id);
    }
  });
export type PlanInput = z.input<typeof planSchema>;
export type Plan = z.infer<typeof planSchema>;

export const DEFAULT_LIMITS: PlanLimits = { workspaces: 0, members: 0, storage: 0, AutomationRunsLimit: 100, WhitelabelLimit: 0, proViews: false };

/** A stored limits object read leniently (older rows may miss a name): missing names take the defaults. */
export function limitsOf(value: unknown): PlanLimits {
  const raw = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const out = { ...DEFAULT_LIMITS };
  for (const name of LIMIT_NAMES) {
    const v = raw[name];
    if (typeof v === 'number' && Number.isFinite(v)) out[name] = v;
  }
  if (typeof raw.proViews === 'boolean') out.proViews = raw.proViews;
  return out;
}

/** Stored prices read leniently: the list of migration 0240, or the older {interval: amount} map (USD, whole units). */
export function pricesOf(value: unknown, planId: string): Price[] {
  if (Array.isArray(value)) return value.filter((p) => priceSchema.safeParse(p).success) as Price[];
  if (value && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .filter(([interval, amount]) => (PRICE_INTERVALS as readonly string[]).includes(interval) && typeof amount === 'number')
      .map(([interval, amount]) => ({ id: `${planId}-${interval}-usd`, interval: interval as Price['interval'], currency: 'USD', amount: Math.round((amount as number) * 100) }));
  }
  return [];
}

/** A free plan has no price above zero. */
export function isPaid(plan: Pick<PlanRow, 'prices' | 'id'>): boolean {
  return pricesOf(plan.prices, plan.id).some((p) => p.amount > 0);
}

/** Plans in catalogue order; archived ones only when asked. */
export async function listPlans(db: Db, opts: { includeArchived?: boolean } = {}): Promise<PlanRow[]> {
  let query = db.selectFrom('plans').selectAll().orderBy('position').orderBy('level').orderBy('tier').orderBy('id');
  if (!opts.includeArchived) query = query.where('archived', '=', false);
  return query.execute();
}

export function getPlan(db: Db, id: string): Promise<PlanRow | undefined> {
  return db.selectFrom('plans').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * workspace.md §4: an upgrade from a plan is allowed when it is upgradable and a higher level or
 * tier exists in the same version (on trial an upgrade is always allowed; the caller decides that).
 */
export function isUpgradable(plan: PlanRow, catalogue: PlanRow[]): boolean {
  if (!plan.is_upgradable) return false;
  return catalogue.some(
    (other) => !other.archived && other.version === plan.version && (other.level > plan.level || (other.level === plan.level && other.tier > plan.tier)),
  );
}

export function planView(plan: PlanRow, catalogue: PlanRow[]): PlanView {
  return {
    id: plan.id,
    name: plan.name,
    version: plan.version,
    level: plan.level,
    tier: plan.tier,
    prices: pricesOf(plan.prices, plan.id),
    isUpgradable: isUpgradable(plan, catalogue),
    limits: limitsOf(plan.limits),
  };
}

/** The top plan: the highest level, then tier, of the newest version among the offered plans. */
export function topPlan(catalogue: PlanRow[]): PlanRow | undefined {
  const offered = catalogue.filter((p) => !p.archived);
  return [...offered].sort((a, b) => b.version - a.version || b.level - a.level || b.tier - a.tier)[0];
}

/** Creates or replaces a plan (the CLI). Subscriptions keep the limits they were given; see decision 0240. */
export async function savePlan(db: Db, input: PlanInput): Promise<Plan> {
  const plan = planSchema.parse(input);
  const row = {
    id: plan.id,
    name: plan.name,
    version: plan.version,
    level: plan.level,
    tier: plan.tier,
    position: plan.position,
    is_upgradable: plan.isUpgradable,
    archived: plan.archived,
    prices: JSON.stringify(plan.prices),
    limits: JSON.stringify(plan.limits),
  };
  await db
    .insertInto('plans')
    .values(row)
    .onConflict((oc) => oc.column('id').doUpdateSet({ ...row, id: undefined } as never))
    .execute();
  return plan;
}

/** A stored plan in the CLI's input shape (what `plans show` prints and `plans set` reads back). */
export function planAsInput(plan: PlanRow): Plan {
  return {
    id: plan.id,
    name: plan.name,
    version: plan.version,
    level: plan.level,
    tier: plan.tier,
    position: plan.position,
    isUpgradable: plan.is_upgradable,
    archived: plan.archived,
    prices: pricesOf(plan.prices, plan.id),
    limits: limitsOf(plan.limits),
  };
}
