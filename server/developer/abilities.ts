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
 * - `admin`: changes the workspace's owner or admins make (settings, members, roles, permissions).
 * - `read`: every other GET; `write`: every other change.
 */
export type RouteAbility = ApiAbility | 'session';

const SESSION_ONLY_PREFIXES = ['/api/auth/', '/api/me/tokens', '/api/me/oauth-apps', '/api/me/applications', '/api/oauth/', '/api/me/email', '/api/me/password', '/api/me/two-factor'];
const SESSION_ONLY_ROUTES = new Set(['DELETE /api/teams/:id']);

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
  if (/\/hooks(\/|$)/.test(url)) return 'hooks';
  const isRead = verb === 'GET' || verb === 'HEAD';
  if (isRead) return 'read';
  const access = routeAccess(verb, url);
  if (access && (access.caller === 'owner' || access.caller === 'owner-or-admin' || (access.permission && ADMIN_PERMISSIONS.has(access.permission)))) return 'admin';
  return 'write';
}
