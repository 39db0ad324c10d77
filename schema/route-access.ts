/**
 * Who may call each API route: the server's route table, route by route, as data. The
 * authorisation matrix (tests/server/authz-matrix.test.ts) reads it, works out every role's
 * expected answer from the permission model (schema/permissions.ts) and calls every registered
 * route as each role; a route the server registers without an entry here fails that test.
 * docs/permissions.md, "Route access table", says how to read an entry.
 *
 * Refusals follow the API's convention (docs/api.md): 401 `unauthenticated` for a caller who is
 * not signed in, 403 `unauthorized` for a signed-in caller who may not.
 */
import { collectionList, type CollectionDefinition, type SyncedCollectionName } from './collections';
import { Permission, type PermissionName } from './permission-names';

/** The first gate of a route: who may call it at all. */
export type Caller =
  /** Anyone, signed in or not (public endpoints, public boards). */
  | 'anyone'
  /** Any signed-in user. */
  | 'signed-in'
  /** A verified member of the workspace the path names (any role). */
  | 'member'
  /** The workspace's owner only. */
  | 'owner'
  /** The workspace's owner or an admin (role, not a permission entry). */
  | 'owner-or-admin'
  /** No user at all: the Pusher HTTP API, signed with the realtime app secret (a bearer token is not enough). */
  | 'app-signature';

export interface RouteAccess {
  caller: Caller;
  /**
   * A permission the caller must also hold. Workspace-wide ones are asked on the workspace;
   * content ones on the board the call names (`on: 'board'`) or on the record it acts on
   * (`on: 'record'`, the record's stored folder, created_by as the `:owner`).
   */
  permission?: PermissionName;
  on?: 'workspace' | 'board' | 'record';
  /** Only the record's author may do this (reactions, time entries: `user_id` / `created_by`). */
  authorOnly?: boolean;
  /** People outside the workspace are refused even where a permission entry lets them in. */
  membersOnly?: boolean;
  /** Which board a `:boardId` in the path names: a board of the workspace, or a public one. */
  board?: 'workspace' | 'public';
  /** The query the call is made with ({boardId}, {itemId} stand for the fixture's records). */
  query?: string;
}

/** `"METHOD /path"` exactly as the server registers the route (Fastify's pattern syntax). */
export type RouteKey = `${'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH'} /${string}`;

const anyone: RouteAccess = { caller: 'anyone' };
const signedIn: RouteAccess = { caller: 'signed-in' };
const member: RouteAccess = { caller: 'member' };
const onWorkspace = (permission: PermissionName): RouteAccess => ({ caller: 'member', permission, on: 'workspace' });
const onBoard = (permission: PermissionName, extra: Partial<RouteAccess> = {}): RouteAccess => ({ caller: 'anyone', permission, on: 'board', ...extra });

/** Records only their author changes or removes (server/sync/rules.ts `ownedBy`). */
const AUTHOR_ONLY: readonly SyncedCollectionName[] = ['comment_reaction', 'time_entry'];
/** Records nobody outside the workspace writes, whatever the entries say (time tracking). */
const MEMBERS_ONLY: readonly SyncedCollectionName[] = ['time_entry'];

/** The generic routes of one synced collection (server/sync/routes.ts), from the registry. */
function collectionRoutes(def: CollectionDefinition): [RouteKey, RouteAccess][] {
  const base = `/api/:teamId/${def.route}` as const;
  const write = (action: 'create' | 'edit' | 'delete', refined: boolean): RouteAccess => ({
    caller: 'signed-in',
    permission: def.permissions[action] as PermissionName,
    on: 'record',
    ...(refined && AUTHOR_ONLY.includes(def.name) ? { authorOnly: true } : {}),
    ...(MEMBERS_ONLY.includes(def.name) ? { membersOnly: true } : {}),
  });
  const out: [RouteKey, RouteAccess][] = [
    [`GET ${base}`, onBoard(Permission.VIEW_BOARD, { query: '?board_id={boardId}' })],
    // Save-multiple: the matrix saves one new record, so the create permission decides.
    [`PUT ${base}`, write('create', false)],
    // Save one: the matrix saves the stored record again, so the edit permission decides.
    [`PUT ${base}/:id`, write('edit', true)],
    [`DELETE ${base}/:id`, write('delete', true)],
  ];
  // Taking a record out of the trash is judged like putting it there.
  if (def.trash) out.push([`POST ${base}/:id/restore`, write('delete', true)]);
  return out;
}

const timeEntries = collectionList.find((def) => def.name === 'time_entry')!;

export const ROUTE_ACCESS: Readonly<Record<RouteKey, RouteAccess>> = {
  // App variables and files
  'GET /api/app-vars': anyone,
  'GET /api/server': anyone, // the database's identity and change horizon (decision 0102)
  'GET /api/health': anyone, // liveness: the process answers (decision 0191)
  'PUT /api/log': anyone, // client events and error reports, written to the server log (decision 0230)
  'GET /api/additional-scripts.js': anyone, // the operator's additional script (decision 0230)
  'GET /api/ready': anyone, // readiness: database, migrations, file store (decision 0191)
  'GET /api/files/*': anyone, // public by unguessable name

  // Session and accounts (docs/api/accounts.md)
  'POST /api/auth/login': anyone,
  'POST /api/auth/register': anyone,
  'POST /api/auth/refresh': anyone, // holds a refresh token, not a bearer token
  'POST /api/auth/logout': anyone,
  'POST /api/auth/forgot-password': anyone,
  'POST /api/auth/reset-password': anyone,
  'POST /api/auth/verify-email': anyone,
  'POST /api/auth/verify-email/resend': signedIn,
  'POST /api/auth/reauthenticate': signedIn,
  'POST /api/auth/sso/start': anyone, // single sign-on (decision 0270)
  'POST /api/auth/sso/callback': anyone, // bound to the browser by the cookie start set
  'POST /api/auth/sso/second-factor': anyone, // the code after a sign-in of an account with 2FA (same cookie)
  'GET /api/me/sso-links': signedIn, // the account's own links to identity providers (issue #26, N1)
  'POST /api/me/sso-links/start': signedIn, // also needs the password confirmed; the workspace's owner or a verified member
  'DELETE /api/me/sso-links/:id': signedIn,
  'GET /api/me': signedIn,
  'PUT /api/me': signedIn,
  'PUT /api/me/email': signedIn,
  'PUT /api/me/password': signedIn,
  'POST /api/me/photo': signedIn,
  'DELETE /api/me/photo': signedIn,
  'GET /api/me/two-factor': signedIn,
  'POST /api/me/two-factor': signedIn,
  'POST /api/me/two-factor/confirm': signedIn,
  'POST /api/me/two-factor/recovery-codes': signedIn,
  'DELETE /api/me/two-factor': signedIn,
  'GET /api/me/time-tracking': signedIn,
  'GET /api/me/workspaces': signedIn,
  'GET /api/me/conflicts': signedIn, // the user's own open conflicts (decision 0346)
  'POST /api/me/conflicts/:key/resolve': signedIn, // only the user's own rows are touched
  'GET /api/me/hooks': signedIn, // the caller's own webhooks across workspaces (docs/api/hooks.md)

  // Workspaces, members, invitations (docs/api/workspaces.md)
  'GET /api/subscription': anyone, // anonymous visitors get []
  'GET /api/subscription/all': anyone, // with state, plan, limits, usage and trial; anonymous visitors get []
  'POST /api/subscription': signedIn, // start a trial on the caller's own subscription
  'POST /api/subscription/:id': signedIn, // a subscription of someone else's is a 422, like an unknown one
  'GET /api/plans': anyone, // the plan catalogue is public
  // Payments (decision 0250): the caller's own cards and invoices; another person's is a 404.
  'GET /api/payment/methods': signedIn,
  'POST /api/payment/methods': signedIn,
  'DELETE /api/payment/methods/:id': signedIn,
  'GET /api/payment/invoices': signedIn,
  'GET /api/payment/invoices/:id/pdf': signedIn,
  'GET /api/payment/user/user/invoices/next': signedIn,
  'POST /api/payment/quote': signedIn, // prices a purchase on the caller's own subscription; nothing stored
  'POST /api/payment/card-setup': signedIn, // a card-entry session for the caller's own customer at the provider (decision 0300)
  'POST /api/payment/card-setup/finish': signedIn, // another user's session is a 404
  // Referral (decision 0260): the caller's own code, link, invitations and earnings.
  'GET /api/referral': signedIn,
  'POST /api/referral': signedIn, // a new random code
  'PUT /api/referral': signedIn, // a code of one's choosing
  'POST /api/referral/invite': signedIn, // mails the caller's link
  'GET /api/:teamId/referral': member, // the caller's link, from inside a workspace
  'GET /api/ltd-codes/:code': anyone, // whether a lifetime-deal code is unused (the activation screen, signed out too)
  'POST /api/ltd-codes/:code/redeem': signedIn, // onto the caller's own subscription
  'GET /api/subscriptions/:id/add-ons': signedIn, // own subscriptions only (someone else's is a 422)
  'POST /api/subscriptions/:ltdId/add-ons': signedIn,
  'POST /api/subscriptions/:ltdId/add-ons/:oldAddonId': signedIn,
  'DELETE /api/subscriptions/:ltdId/add-ons/:id': signedIn,
  'GET /api/subscription/:id/cancellation': signedIn,
  'POST /api/subscription/:id/cancel': signedIn,
  'POST /api/subscription/:id/resume': signedIn,
  'POST /api/subscription/:id/cancellation-coupon': signedIn, // once per user
  'POST /api/payment/webhooks/stripe': { caller: 'app-signature' }, // Stripe itself: the body must carry Stripe's signature with the endpoint's secret (401 otherwise)
  'POST /api/teams': signedIn,
  'POST /api/teams/invitations/accept': signedIn,
  'GET /api/teams/:id': member,
  'PUT /api/teams/:id': onWorkspace(Permission.EDIT_WORKSPACE_SETTINGS),
  'DELETE /api/teams/:id': { caller: 'owner' },
  'GET /api/:teamId/sso': { caller: 'owner' }, // single sign-on settings (decision 0270)
  'PUT /api/:teamId/sso': { caller: 'owner' },
  'DELETE /api/:teamId/sso': { caller: 'owner' },
  'POST /api/:teamId/sso/test': { caller: 'owner' },
  'POST /api/:teamId/sso/verify': { caller: 'owner' }, // DNS TXT proof of the allowed domains
  // White label (decision 0265): the owner controls it (workspace.md §6); changes also need an eligible plan (422 otherwise).
  'GET /api/teams/whitelabel/:id': { caller: 'owner' },
  'PUT /api/teams/whitelabel/:id': { caller: 'owner' },
  'POST /api/teams/whitelabel/:id/assets': { caller: 'owner' },
  'POST /api/teams/whitelabel/:id/verify': { caller: 'owner' },
  'POST /api/teams/whitelabel/:id/test-mail': { caller: 'owner' },
  'GET /api/tenant.css': anyone, // the colours and font of the request's host (a white-labelled domain), before first paint
  'POST /api/teams/:id/photo': onWorkspace(Permission.EDIT_WORKSPACE_SETTINGS),
  'DELETE /api/teams/:id/photo': onWorkspace(Permission.EDIT_WORKSPACE_SETTINGS),
  'GET /api/teams/:id/members': member,
  'GET /api/teams/:id/members/count': member,
  'GET /api/teams/:id/members/invitations': member,
  'POST /api/teams/:id/members': onWorkspace(Permission.INVITE_MEMBERS),
  'POST /api/teams/:id/members/resend': onWorkspace(Permission.INVITE_MEMBERS),
  'PUT /api/teams/:id/members/:memberId': onWorkspace(Permission.EDIT_MEMBER_ROLES),
  'DELETE /api/teams/:id/members/:memberId': onWorkspace(Permission.REMOVE_MEMBERS),
  'DELETE /api/teams/:id/leave': member,
  'GET /api/teams/:id/usage': member, // the storage figure
  'GET /api/:teamId/features': member, // the plan's feature flags (server/workspaces/features.ts)

  // Workspace and board permissions
  'GET /api/:teamId/permissions': member,
  'PUT /api/:teamId/permissions': onWorkspace(Permission.MANAGE_PERMISSIONS),
  'GET /api/:teamId/permissions/access': { caller: 'anyone', query: '?resource_type=workspace' }, // anonymous callers ask as guests
  'GET /api/:teamId/permissions/boards/:boardId': onBoard(Permission.VIEW_BOARD),
  'PUT /api/users': { caller: 'signed-in', permission: Permission.MANAGE_BOARD_MEMBERS, on: 'board' },

  // Sync (docs/api/sync.md, docs/sync-protocol.md)
  ...(Object.fromEntries(collectionList.flatMap(collectionRoutes)) as Record<RouteKey, RouteAccess>),
  // Each request of a batch is judged like the direct call (the record routes above).
  'POST /api/:teamId/batch': signedIn,
  'POST /api/:teamId/conflicts': member, // report a conflict of the user's own edit (decision 0346); the record must be one they read
  // The workspace-wide feed is for members; a guest catches up per board (docs/permissions.md).
  'GET /api/:teamId/changes': { caller: 'member', query: '?after=0' },
  // The trash is the workspace's, not a visitor's: members who may view the board.
  'GET /api/:teamId/trash': { caller: 'member', permission: Permission.VIEW_BOARD, on: 'board', query: '?board_id={boardId}' },
  'GET /api/:teamId/comments/multiple': onBoard(Permission.VIEW_BOARD, { query: '?board_id={boardId}&item_ids={itemId}' }),
  // The board's activity log; one item's (?item_id=) is for anyone who may read the item (server/activity).
  'GET /api/:teamId/activity': onBoard(Permission.VIEW_ACTIVITY_LOG, { query: '?board_id={boardId}' }),
  'GET /api/:teamId/time-tracking/:boardId': onBoard(Permission.VIEW_BOARD),
  // Automations' run log and this month's runs (docs/api/automations.md): the workspace's members who view the board.
  'GET /api/:teamId/automations/runs': { caller: 'member', permission: Permission.VIEW_BOARD, on: 'board', query: '?board_id={boardId}' },
  'GET /api/:teamId/automations/usage': { caller: 'member', permission: Permission.VIEW_BOARD, on: 'board', query: '?board_id={boardId}' },
  'POST /api/:teamId/time-tracking': { caller: 'signed-in', permission: timeEntries.permissions.create as PermissionName, on: 'record', membersOnly: true },
  'POST /api/:teamId/attachments': { caller: 'signed-in', permission: Permission.EDIT_ITEM, on: 'record', query: '?item_id={itemId}' },

  // Webhooks (docs/api/hooks.md): MANAGE_WEBHOOKS on the workspace (owners and admins by default).
  'PUT /api/:teamId/hooks/:hookId': onWorkspace(Permission.MANAGE_WEBHOOKS),
  'DELETE /api/:teamId/hooks/:hookId': onWorkspace(Permission.MANAGE_WEBHOOKS),
  'GET /api/:teamId/hooks/:hookId/logs': onWorkspace(Permission.MANAGE_WEBHOOKS),
  'POST /api/:teamId/hooks/:hookId/test': onWorkspace(Permission.MANAGE_WEBHOOKS),

  // Templates (docs/api/templates.md, decision 0165): a user's own; seeing one follows its sharing.
  'GET /api/templates': signedIn,
  'GET /api/templates/:templateId': signedIn,
  'GET /api/me/templates': signedIn,
  'PUT /api/me/templates/:templateId': signedIn,
  'DELETE /api/me/templates/:templateId': signedIn,
  'POST /api/me/templates/:templateId/share': signedIn,
  'POST /api/:teamId/boards/:boardId/template': { caller: 'signed-in', permission: Permission.SAVE_AS_TEMPLATE, on: 'board' },
  'POST /api/:teamId/templates/:templateId/use': onWorkspace(Permission.CREATE_BOARD),
  // Duplicating a board makes a new one (CREATE_BOARD); the board must be one the caller views.
  'POST /api/:teamId/boards/:boardId/duplicate': onWorkspace(Permission.CREATE_BOARD),

  // Board jobs, CSV import and export (docs/api/board-jobs.md): each caller's own jobs; an import
  // creates items on the board, an export needs EXPORT (decisions 0160, 0161).
  'GET /api/me/board-jobs': signedIn,
  'GET /api/me/board-jobs/:jobId': signedIn,
  'POST /api/me/board-jobs/:jobId/cancel': signedIn,
  'POST /api/:teamId/boards/:boardId/imports/csv': { caller: 'signed-in', permission: Permission.CREATE_ITEM, on: 'board' },
  // Trello and Gitlab imports (docs/imports.md): the Trello screens' reads for any member; starting one as the CSV import.
  'GET /api/imports/trello/config': signedIn,
  'POST /api/:teamId/imports/trello/boards': member,
  'POST /api/:teamId/imports/trello/boards/:trelloBoardId': member,
  'POST /api/:teamId/boards/:boardId/imports/trello': { caller: 'signed-in', permission: Permission.CREATE_ITEM, on: 'board' },
  'POST /api/:teamId/boards/:boardId/imports/gitlab': { caller: 'signed-in', permission: Permission.CREATE_ITEM, on: 'board' },
  'GET /api/:teamId/boards/:boardId/exports/csv': { caller: 'signed-in', permission: Permission.EXPORT, on: 'board' },
  // PDF export as a board job (decision 0225): EXPORT on the board; the file only for the job's user.
  'POST /api/:teamId/boards/:boardId/exports/pdf': { caller: 'signed-in', permission: Permission.EXPORT, on: 'board' },
  'GET /api/me/board-jobs/:jobId/file': signedIn,
  // Duplicating a folder beside itself and moving a board to another workspace as board jobs (decisions 0226, 0227).
  'POST /api/:teamId/boards/:boardId/duplicate-folder': { caller: 'signed-in', permission: Permission.CREATE_FOLDER, on: 'board' },
  'POST /api/:teamId/boards/:boardId/move': { caller: 'signed-in', permission: Permission.DELETE_BOARD, on: 'board' },

  // Public boards and board passwords (docs/api/boards.md)
  'GET /api/boards/:boardId/public': { caller: 'anyone', board: 'public' },
  'POST /api/boards/:boardId/unlock': { caller: 'anyone', board: 'public' },
  'GET /api/:teamId/boards/:boardId/password': onBoard(Permission.VIEW_BOARD),
  'PUT /api/:teamId/boards/:boardId/password': { caller: 'owner-or-admin' },

  // Public forms (docs/api/forms.md): anyone, while the form is enabled; the item is written as the form's owner.
  'GET /api/forms/:formId': anyone,
  'POST /api/forms/:formId': anyone,

  // Notifications (docs/api.md, Notifications): each caller's own; follows need read access to the item.
  'GET /api/notifications': signedIn,
  'GET /api/notifications/unread-count': signedIn,
  'PUT /api/notifications/read': signedIn,
  'PUT /api/notifications/unread': signedIn,
  'PUT /api/notifications/read-all': signedIn,
  'POST /api/notifications/device-tokens': signedIn,
  'DELETE /api/notifications/device-tokens': signedIn,
  'GET /api/notifications/vapid-public-key': signedIn,
  'GET /api/me/notification-settings': signedIn,
  'PUT /api/me/notification-settings': signedIn,
  'GET /api/:teamId/items/:itemId/follow': { caller: 'signed-in', permission: Permission.VIEW_FOLDER, on: 'record' },
  'PUT /api/:teamId/items/:itemId/follow': { caller: 'signed-in', permission: Permission.VIEW_FOLDER, on: 'record' },
  'DELETE /api/:teamId/items/:itemId/follow': { caller: 'signed-in', permission: Permission.VIEW_FOLDER, on: 'record' },

  // Personal access tokens and OAuth apps (docs/api/tokens.md, docs/api/oauth.md): each caller's own.
  'POST /api/me/tokens': signedIn,
  'GET /api/me/tokens': signedIn,
  'DELETE /api/me/tokens/:id': signedIn,
  'GET /api/me/oauth-apps': signedIn,
  'POST /api/me/oauth-apps': signedIn,
  'PUT /api/me/oauth-apps/:id': signedIn,
  'DELETE /api/me/oauth-apps/:id': signedIn,
  'POST /api/me/oauth-apps/:id/secret': signedIn,
  'GET /api/me/applications': signedIn,
  'DELETE /api/me/applications/:clientId': signedIn,
  'GET /api/oauth/authorize': signedIn, // the consent screen, with the user's session
  'POST /api/oauth/authorize': signedIn,
  'POST /api/oauth/token': anyone, // the app authenticates with its client id and secret

  // Realtime (docs/api/realtime.md): channel auth answers per channel inside a 200.
  'POST /api/broadcasting/multi-auth': anyone,
  'POST /apps/:appId/events': { caller: 'app-signature' },
  'POST /apps/:appId/batch_events': { caller: 'app-signature' },
  'GET /apps/:appId/channels/:channel': { caller: 'app-signature' },
  // The API's own description (docs/api/docs.md): the OpenAPI document and its browsable page.
  'GET /api/docs': anyone,
  'GET /api/docs/openapi.json': anyone,
  'GET /api/docs/docs.js': anyone,
  'GET /api/docs/docs.css': anyone,
};

/**
 * Who may subscribe to each realtime channel (docs/api/realtime.md), answered per channel inside
 * the 200 of POST /api/broadcasting/multi-auth: 200 with a signature, or 403 (also for anonymous
 * callers: guests cannot subscribe). `{userId}` is the channel's user; `self` means only that user.
 */
export const CHANNEL_ACCESS: Readonly<Record<string, RouteAccess & { self?: boolean }>> = {
  'private-team.{teamId}.users': member,
  'private-team.{teamId}.permissions': member,
  'private-App.User.{userId}': { caller: 'signed-in', self: true },
  'private-user.{teamId}.{boardId}.timeTracking': { caller: 'signed-in', permission: Permission.VIEW_BOARD, on: 'board' },
  'private-team.{teamId}.board.{boardId}': { caller: 'signed-in', permission: Permission.VIEW_BOARD, on: 'board' },
  'presence-team.{teamId}.board.{boardId}': { caller: 'signed-in', permission: Permission.VIEW_BOARD, on: 'board' },
};

/** The access entry of a registered route, or undefined when the table has none. */
export function routeAccess(method: string, url: string): RouteAccess | undefined {
  return (ROUTE_ACCESS as Record<string, RouteAccess>)[`${method.toUpperCase()} ${url}`];
}

/** True for the routes the table covers: the API (/api/…) and the Pusher HTTP API (/apps/…). */
export function isApiRoute(url: string): boolean {
  return url.startsWith('/api/') || url.startsWith('/apps/');
}
