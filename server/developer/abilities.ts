import { routeAccess } from '../../schema/route-access';
import { Permission, type PermissionName } from '../../schema/permission-names';
import type { ApiAbility } from '../../schema/api-abilities';

/**
 * The ability a route needs from an API token (decision 0145), from the route's method, pattern
 * and its entry in schema/route-access.ts, so a new route is covered without anyone listing it:
 *
 * - `session`: account and credential routes no token may call, whatever its abilities (signing
 *   in, tokens and OAuth apps themselves, consent, email, password, two-factor, deleting a
 *   workspace): a leaked token must not mint more tokens or take the account over.
 * - `hooks`: any route with a `hooks` path segment (webhooks and their logs).
 * - `billing`: subscriptions, payments (cards, invoices, quotes) and lifetime codes, reads included:
 *   money and plan changes are never a side effect of `write` (issue #26, N8).
 * - `admin`: changes the workspace's owner or admins make (settings, members, roles, permissions).
 *   A folder save that changes permission entries, members, hidden or public needs it too; that is
 *   judged by what the save changes, in the folder rule (server/sync/rules.ts), not here.
 * - `read`: every other GET; `write`: every other change.
 */
export type RouteAbility = ApiAbility | 'session';

const SESSION_ONLY_PREFIXES = ['/api/auth/', '/api/me/tokens', '/api/me/oauth-apps', '/api/me/applications', '/api/oauth/', '/api/me/email', '/api/me/password', '/api/me/two-factor'];
const SESSION_ONLY_ROUTES = new Set(['DELETE /api/teams/:id']);
/** The payment provider's own webhook is signed by the provider, never called with a token. */
const BILLING_PREFIXES = ['/api/subscription', '/api/subscriptions', '/api/payment/', '/api/ltd-codes'];
const isBilling = (url: string) => !url.startsWith('/api/payment/webhooks/') && BILLING_PREFIXES.some((prefix) => url === prefix.replace(/\/$/, '') || url.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`) || url === prefix);

const ADMIN_PERMISSIONS: ReadonlySet<PermissionName> = new Set([
  Permission.EDIT_WORKSPACE_SETTINGS,
  Permission.INVITE_MEMBERS,
  Permission.REMOVE_MEMBERS,
  Permission.EDIT_MEMBER_ROLES,
  Permission.MANAGE_PERMISSIONS,
  Permission.MANAGE_BOARD_MEMBERS,
  Permission.DELETE_WORKSPACE,
]);

export function requiredAbility(method: string, url: string): RouteAbility {
  const verb = method.toUpperCase();
  if (SESSION_ONLY_ROUTES.has(`${verb} ${url}`) || SESSION_ONLY_PREFIXES.some((prefix) => url === prefix.replace(/\/$/, '') || url.startsWith(prefix))) return 'session';
  if (isBilling(url)) return 'billing';
  if (/\/hooks(\/|$)/.test(url)) return 'hooks';
  const isRead = verb === 'GET' || verb === 'HEAD';
  if (isRead) return 'read';
  const access = routeAccess(verb, url);
  if (access && (access.caller === 'owner' || access.caller === 'owner-or-admin' || (access.permission && ADMIN_PERMISSIONS.has(access.permission)))) return 'admin';
  return 'write';
}
