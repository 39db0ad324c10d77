/** The event fired when the plan allows no further workspace (shell.md §2). */
export const WORKSPACE_LIMIT_EVENT = 'workspaceLimitExceeded';
/** The error type POST /api/teams answers with when the limit is reached. */
export const WORKSPACE_LIMIT_ERROR_TYPE = 'workspace_limit_exceeded';

/** The parts of GET /api/subscription this check reads. */
export interface SubscriptionCapacity {
  can_create_workspace?: boolean;
  limits?: Record<string, number | null | undefined> | null;
  usage?: Record<string, number | null | undefined> | null;
}

/**
 * Whether one more workspace fits: the server's own verdict when it gives one, else limits vs usage
 * (a missing limit means unlimited). With no subscription at all the user may not create one
 * (workspace.md §6: creation needs an owned subscription with spare capacity).
 */
export function canCreateWorkspace(subscription: SubscriptionCapacity | null | undefined): boolean {
  if (!subscription) return false;
  if (typeof subscription.can_create_workspace === 'boolean') return subscription.can_create_workspace;
  const limit = subscription.limits?.workspaces;
  if (limit === undefined || limit === null) return true;
  const used = subscription.usage?.workspaces ?? 0;
  return used < limit;
}

export function fireWorkspaceLimitExceeded(target: EventTarget = window) {
  target.dispatchEvent(new Event(WORKSPACE_LIMIT_EVENT));
}

/**
 * GET /api/subscription answers the user's subscriptions (`{data: [...]}`): one more workspace fits
 * when any active one has spare capacity.
 */
export function anySubscriptionHasCapacity(subscriptions: Array<SubscriptionCapacity & { active?: boolean }>): boolean {
  return subscriptions.some((s) => s.active !== false && canCreateWorkspace(s));
}
