import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from '../db/types';
import { ApiError } from '../http/errors';
import { ensureFreeSubscription } from '../accounts/service';
import { storageUsedBySubscription } from '../files/storage-figure';

/**
 * Plan capacity for workspaces and members (workspace.md §6 "workspace creation needs an owned
 * subscription with spare workspace capacity", §9 plan limits).
 */

type Db = Kysely<Database> | Transaction<Database>;
export type SubscriptionRow = Selectable<Database['subscriptions']>;

export const WORKSPACE_LIMIT_MESSAGE = 'You have reached the maximum number of workspaces on your plan. Upgrade your plan to create another workspace.';
export const MEMBER_LIMIT_MESSAGE = 'The workspace has reached the maximum number of members on its plan. Contact the workspace owner to upgrade.';
export const INACTIVE_SUBSCRIPTION_MESSAGE = 'A workspace needs an active subscription.';

/** workspace.md §4: on trial while trial_ends_at is ahead; active on trial, with no end, or before the end. */
export function isOnTrial(sub: SubscriptionRow, now: Date): boolean {
  return sub.trial_ends_at !== null && new Date(sub.trial_ends_at).getTime() > now.getTime();
}
export function isActive(sub: SubscriptionRow, now: Date): boolean {
  return isOnTrial(sub, now) || sub.ends_at === null || new Date(sub.ends_at).getTime() > now.getTime();
}

export function limitOf(sub: Pick<SubscriptionRow, 'limits'> | null | undefined, name: string): number {
  const value = (sub?.limits as Record<string, number> | undefined)?.[name];
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

export async function workspacesUsing(db: Db, subscriptionId: number): Promise<number> {
  const row = await db
    .selectFrom('teams')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('subscription_id', '=', subscriptionId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The user's subscriptions; an account without one gets its free plan first (every account owns one). */
export async function ownedSubscriptions(db: Db, userId: number, now: Date, opts: { lock?: boolean } = {}): Promise<SubscriptionRow[]> {
  await ensureFreeSubscription(db, userId, now);
  const query = db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).orderBy('id');
  // Inside a transaction, locking the rows makes two concurrent creations count one after the other.
  return (opts.lock ? query.forUpdate() : query).execute();
}

/**
 * The owned, active subscription a new workspace goes on: the one asked for, else the first with
 * spare capacity; call it inside the creating transaction. Over the limit is a 403 of type workspace_limit_exceeded (the client fires
 * workspaceLimitExceeded on it).
 */
export async function subscriptionForNewWorkspace(
  db: Db,
  userId: number,
  now: Date,
  wanted?: number,
  /** The subscription's workspace limit; the caller passes the effective one (server/billing/limits.ts: BILLING=off). */
  workspaceLimit: (sub: SubscriptionRow) => Promise<number> = async (sub) => limitOf(sub, 'workspaces'),
): Promise<SubscriptionRow> {
  // Locking the user's row first makes concurrent creations by one user take turns (also over
  // the free subscription an account without one gets here).
  await db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
  const owned = await ownedSubscriptions(db, userId, now, { lock: true });
  const candidates = wanted === undefined ? owned : owned.filter((s) => s.id === wanted);
  if (wanted !== undefined && candidates.length === 0) {
    throw new ApiError(422, 'subscription_id: must be a subscription you own', 'validation', ['subscription_id: must be a subscription you own']);
  }
  const active = candidates.filter((s) => isActive(s, now));
  if (active.length === 0) throw new ApiError(403, INACTIVE_SUBSCRIPTION_MESSAGE, 'subscription_inactive');
  for (const sub of active) {
    if ((await workspacesUsing(db, sub.id)) < (await workspaceLimit(sub))) return sub;
  }
  throw new ApiError(403, WORKSPACE_LIMIT_MESSAGE, 'workspace_limit_exceeded');
}

/** Seats taken in a team: verified members and pending invitations alike (the owner included). */
export async function seatsTaken(db: Db, teamId: number): Promise<number> {
  const row = await db
    .selectFrom('team_members')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('team_id', '=', teamId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface SubscriptionView {
  id: number;
  user_id: number;
  deal: string;
  limits: Record<string, number>;
  /** storage: bytes of uploads held by the workspaces on this subscription. */
  usage: { workspaces: number; storage: number };
  trial_ends_at: string | null;
  ends_at: string | null;
  on_trial: boolean;
  active: boolean;
  transient: false;
  version: number;
}

export async function subscriptionView(db: Db, sub: SubscriptionRow, now: Date): Promise<SubscriptionView> {
  return {
    id: sub.id,
    user_id: sub.user_id,
    deal: sub.deal,
    limits: (sub.limits ?? {}) as Record<string, number>,
    usage: { workspaces: await workspacesUsing(db, sub.id), storage: await storageUsedBySubscription(db, sub.id) },
    trial_ends_at: sub.trial_ends_at ? new Date(sub.trial_ends_at).toISOString() : null,
    ends_at: sub.ends_at ? new Date(sub.ends_at).toISOString() : null,
    on_trial: isOnTrial(sub, now),
    active: isActive(sub, now),
    transient: false,
    version: sub.version,
  };
}
