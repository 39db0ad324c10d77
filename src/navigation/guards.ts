import { redirect } from '@tanstack/react-router';
import { Workspaces } from '../api/endpoints';
import { workspaces } from '../api/workspaces-cache';
import { anySubscriptionHasCapacity, fireWorkspaceLimitExceeded, type SubscriptionCapacity } from './workspace-limit';
import { whiteLabelTarget } from './whitelabel';
import { listOf } from '../api/endpoints';

/** The page we are on, so a blocked navigation can stay there. */
let currentHref: string | null = null;
export const rememberCurrentHref = (href: string) => {
  currentHref = href;
};

function stayHere(): never {
  throw redirect({ href: currentHref ?? '/home', replace: true });
}

/** create-workspace is blocked with workspaceLimitExceeded when the plan allows no more. */
export async function checkCreateWorkspace() {
  let subscriptions: SubscriptionCapacity[];
  try {
    subscriptions = listOf<SubscriptionCapacity>(await Workspaces.subscriptions());
  } catch {
    // Unknown capacity (offline, server error): let the create call itself answer.
    return;
  }
  if (!anySubscriptionHasCapacity(subscriptions)) {
    fireWorkspaceLimitExceeded();
    stayHere();
  }
}

/** A workspace with a white-label link opens its routes there, in a new window. */
export async function checkWhiteLabel(teamId: number, href: string) {
  const list = workspaces.get() ?? (await workspaces.load().catch(() => null));
  const target = whiteLabelTarget(list?.find((w) => w.id === teamId), href, window.location.origin);
  if (!target) return;
  window.open(target, '_blank', 'noopener');
  stayHere();
}
