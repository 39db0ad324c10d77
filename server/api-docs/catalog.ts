import { z } from 'zod';
import type { RouteDocs } from './route-docs';
import { collectionList, type CollectionDefinition } from '../../schema/collections';
import { notificationIdsBody, notificationListQuery, notificationSettingsBody, deviceTokenBody, readAllBody } from '../../schema/notifications';
import * as accounts from '../accounts/validators';
import * as workspaces from '../workspaces/validators';
import { activityQuery } from '../activity/query';
import { batchBody } from '../sync/batch';
import { hookSaveBody } from '../../schema/hooks';
import { logBody } from '../shell/routes';
import { duplicateBoardBody, editTemplateBody, saveAsTemplateBody, shareTemplateBody, useTemplateBody } from '../../schema/templates';
import { subscribeBody } from '../billing/routes';
import * as whitelabel from '../../schema/whitelabel';
import * as referral from '../referral/service';

/**
 * Descriptions of the routes that existed before routes carried their own (`config.docs`;
 * decision 0146), keyed like schema/route-access.ts. Bodies are the validators the handlers parse
 * with. A route that has neither an entry here nor its own docs fails tests/server/api-docs.test.ts.
 */

const boardQuery = z.object({ board_id: z.string().describe('The board (its root folder id).') });

/** The generic routes of one synced collection (server/sync/routes.ts; docs/sync-protocol.md). */
function collectionDocs(def: CollectionDefinition): Record<string, RouteDocs> {
  const base = `/api/:teamId/${def.route}`;
  const tag = 'Sync';
  const name = def.name.replace(/_/g, ' ');
  const docs: Record<string, RouteDocs> = {
    [`GET ${base}`]: { tag, summary: `List a board’s ${name} records`, description: 'Records the caller may read; the delta feed (`/changes`) keeps a copy current.', query: def.name === 'folder' ? undefined : boardQuery },
    [`PUT ${base}`]: { tag, summary: `Save several ${name} records`, description: 'Creates or updates each record (client-made ids; `row_version` one above the stored one).', body: z.array(def.schema) },
    [`PUT ${base}/:id`]: { tag, summary: `Create or update one ${name}`, description: 'Answers the stored record. A stale `row_version` is a 409 with the server’s copy.', body: def.schema },
    [`DELETE ${base}/:id`]: { tag, summary: def.trash ? `Move a ${name} to the trash` : `Delete a ${name}` },
  };
  if (def.trash) docs[`POST ${base}/:id/restore`] = { tag, summary: `Restore a ${name} from the trash` };
  return docs;
}

export const CATALOG: Record<string, RouteDocs> = {
  'GET /api/app-vars': { tag: 'Server', summary: 'Public settings the app starts with', auth: 'none' },
  'GET /api/server': { tag: 'Server', summary: 'The database’s identity and change horizon', auth: 'none' },
  'GET /api/health': { tag: 'Server', summary: 'Liveness: the process answers', auth: 'none' },
  'PUT /api/log': { tag: 'Server', summary: 'Report a client event or error', description: 'One structured line in the server log (analytics backend driver, the app’s error reporter); never stored. Throttled per address.', body: logBody, auth: 'optional-bearer' },
  'GET /api/additional-scripts.js': { tag: 'Server', summary: 'The operator’s additional script', description: 'JavaScript the app loads when app-vars `additionalScripts` is true; 204 when none is set.', auth: 'none' },
  'GET /api/ready': { tag: 'Server', summary: 'Readiness: the database answers', auth: 'none' },
  'GET /api/files/*': { tag: 'Files', summary: 'Download an uploaded file by its unguessable name', auth: 'none' },
  'POST /api/:teamId/attachments': { tag: 'Files', summary: 'Upload an attachment to an item', bodyType: 'multipart/form-data', query: z.object({ item_id: z.string() }) },
  'GET /api/teams/:id/usage': { tag: 'Workspaces', summary: 'The workspace’s storage use' },

  'POST /api/auth/login': { tag: 'Sessions', summary: 'Sign in', description: 'With `grantType: "password"` the answer carries the refresh token (native apps, scripts); otherwise it is set as an httpOnly cookie.', body: accounts.loginBody, auth: 'none' },
  'POST /api/auth/register': { tag: 'Sessions', summary: 'Create an account', body: accounts.registerBody, auth: 'none' },
  'POST /api/auth/refresh': { tag: 'Sessions', summary: 'Rotate a session’s tokens', body: accounts.refreshBody, auth: 'none' },
  'POST /api/auth/logout': { tag: 'Sessions', summary: 'End the session', body: accounts.logoutBody, auth: 'optional-bearer' },
  'POST /api/auth/reauthenticate': { tag: 'Sessions', summary: 'Confirm the password before a sensitive change', body: accounts.passwordOnlyBody },
  'POST /api/auth/forgot-password': { tag: 'Sessions', summary: 'Mail a password reset link', body: accounts.forgotPasswordBody, auth: 'none' },
  'POST /api/auth/reset-password': { tag: 'Sessions', summary: 'Set a new password with a reset link', body: accounts.resetPasswordBody, auth: 'none' },
  'POST /api/auth/verify-email': { tag: 'Sessions', summary: 'Verify the email address with the mailed token', body: accounts.verifyEmailBody, auth: 'none' },
  'POST /api/auth/verify-email/resend': { tag: 'Sessions', summary: 'Mail the verification link again' },

  'GET /api/me': { tag: 'Profile', summary: 'The signed-in user' },
  'PUT /api/me': { tag: 'Profile', summary: 'Change name, language, time zone, theme or preferences', body: accounts.profileBody },
  'PUT /api/me/email': { tag: 'Profile', summary: 'Change the email address', body: accounts.changeEmailBody },
  'PUT /api/me/password': { tag: 'Profile', summary: 'Change the password', body: accounts.changePasswordBody },
  'POST /api/me/photo': { tag: 'Profile', summary: 'Upload a profile photo', bodyType: 'multipart/form-data' },
  'DELETE /api/me/photo': { tag: 'Profile', summary: 'Remove the profile photo' },
  'GET /api/me/two-factor': { tag: 'Profile', summary: 'Two-factor status' },
  'POST /api/me/two-factor': { tag: 'Profile', summary: 'Start turning on two-factor authentication' },
  'POST /api/me/two-factor/confirm': { tag: 'Profile', summary: 'Confirm two-factor with a code', body: accounts.codeBody },
  'POST /api/me/two-factor/recovery-codes': { tag: 'Profile', summary: 'Replace the recovery codes' },
  'DELETE /api/me/two-factor': { tag: 'Profile', summary: 'Turn two-factor authentication off' },
  'GET /api/me/time-tracking': { tag: 'Time tracking', summary: 'The user’s time entries across workspaces', query: z.object({ from: z.string().optional(), to: z.string().optional() }) },
  'GET /api/me/workspaces': { tag: 'Workspaces', summary: 'The workspaces the user belongs to' },

  'GET /api/subscription': { tag: 'Workspaces', summary: 'The caller’s subscriptions', auth: 'optional-bearer' },
  'GET /api/subscription/all': { tag: 'Billing', summary: 'The caller’s subscriptions with state, plan, effective limits, usage and trial', auth: 'optional-bearer' },
  'POST /api/subscription': { tag: 'Billing', summary: 'Start a 14-day trial ({plan, trial: true}), or buy, upgrade or downgrade a plan ({plan, price, card_id | token, coupon}; prorated)', body: subscribeBody, auth: 'bearer' },
  'POST /api/subscription/:id': { tag: 'Billing', summary: 'Start a trial on this subscription, extend its trial once by 30 days, or buy, upgrade or downgrade its plan', body: subscribeBody, auth: 'bearer' },
  'GET /api/plans': { tag: 'Billing', summary: 'The plan catalogue: prices, limits, whether upgradable', auth: 'none' },
  'GET /api/referral': { tag: 'Referral', summary: 'Your referral code and link, sign-ups, invitations and earnings (20 % of every paid invoice)', auth: 'bearer' },
  'POST /api/referral': { tag: 'Referral', summary: 'Make a new random referral code (links with the old one stop counting)', auth: 'bearer' },
  'PUT /api/referral': { tag: 'Referral', summary: 'Choose your referral code', body: referral.putBody, auth: 'bearer' },
  'POST /api/referral/invite': { tag: 'Referral', summary: 'Mail your referral link to up to 20 addresses (separated by commas, spaces or new lines)', body: referral.inviteBody, auth: 'bearer' },
  'GET /api/:teamId/referral': { tag: 'Referral', summary: 'Your referral link ({link}), for a member of the workspace' },
  'POST /api/teams': { tag: 'Workspaces', summary: 'Create a workspace', body: workspaces.createTeamBody },
  'POST /api/teams/invitations/accept': { tag: 'Workspaces', summary: 'Accept an invitation', body: workspaces.acceptBody },
  'GET /api/teams/:id': { tag: 'Workspaces', summary: 'A workspace' },
  'PUT /api/teams/:id': { tag: 'Workspaces', summary: 'Change a workspace’s settings', body: workspaces.updateTeamBody },
  'DELETE /api/teams/:id': { tag: 'Workspaces', summary: 'Delete a workspace (owner; needs a recent password confirmation)' },
  'POST /api/teams/:id/photo': { tag: 'Workspaces', summary: 'Upload the workspace logo', bodyType: 'multipart/form-data' },
  'DELETE /api/teams/:id/photo': { tag: 'Workspaces', summary: 'Remove the workspace logo' },
  'GET /api/teams/whitelabel/:id': { tag: 'White label', summary: 'The workspace’s white label: settings, images, domain, SMTP (owner)', description: 'Also whether the workspace may use white label (`eligible`, `reason`). The SMTP password is never answered.' },
  'PUT /api/teams/whitelabel/:id': { tag: 'White label', summary: 'Change the white-label settings, domain or SMTP server (owner)', description: 'Settings keys `app.name`, `app.customization.font` (an https web-font stylesheet), `app.customization.colors.{name}`; null removes one. A new domain must be verified again. 422 “White label needs a lifetime-deal workspace.” when the plan does not include it.', body: whitelabel.whitelabelBody },
  'POST /api/teams/whitelabel/:id/assets': { tag: 'White label', summary: 'Upload the logo, loader or wide logo (owner)', description: 'One PNG, JPEG, GIF or WebP image (at most 2 MB; recommended width 500 px) in the field `logo`, `loader` or `logoWide`, or the text field `remove` naming one to remove.', bodyType: 'multipart/form-data' },
  'POST /api/teams/whitelabel/:id/verify': { tag: 'White label', summary: 'Verify the custom domain by its DNS TXT record (owner)', description: 'The TXT record `_cairn-verification.{domain}` must hold `cairn-verification={token}` (both in the answer of GET). 422 `domain_not_verified` says what was found.' },
  'POST /api/teams/whitelabel/:id/test-mail': { tag: 'White label', summary: 'Send a test mail through the workspace’s SMTP server (owner)', description: '422 “SMTP configuration error” with `data.detail` when the server refuses or cannot be reached.', body: whitelabel.testMailBody },
  'GET /api/tenant.css': { tag: 'White label', summary: 'The colours and font of the request’s white-labelled host', auth: 'none' },
  'GET /api/teams/:id/members': { tag: 'Members', summary: 'The workspace’s members' },
  'GET /api/teams/:id/members/count': { tag: 'Members', summary: 'How many members the workspace has' },
  'GET /api/teams/:id/members/invitations': { tag: 'Members', summary: 'Pending invitations' },
  'POST /api/teams/:id/members': { tag: 'Members', summary: 'Invite members', body: workspaces.inviteBody },
  'POST /api/teams/:id/members/resend': { tag: 'Members', summary: 'Send an invitation again', body: workspaces.resendBody },
  'PUT /api/teams/:id/members/:memberId': { tag: 'Members', summary: 'Change a member’s role', body: workspaces.roleBody },
  'DELETE /api/teams/:id/members/:memberId': { tag: 'Members', summary: 'Remove a member' },
  'DELETE /api/teams/:id/leave': { tag: 'Members', summary: 'Leave the workspace' },
  'GET /api/:teamId/features': { tag: 'Workspaces', summary: 'The plan’s feature flags' },

  'GET /api/:teamId/permissions': { tag: 'Permissions', summary: 'The workspace’s permission entries' },
  'PUT /api/:teamId/permissions': { tag: 'Permissions', summary: 'Replace permission entries', body: workspaces.permissionsBody },
  'GET /api/:teamId/permissions/access': { tag: 'Permissions', summary: 'What the caller may do on a resource', query: workspaces.accessQuery, auth: 'optional-bearer' },
  'GET /api/:teamId/permissions/boards/:boardId': { tag: 'Permissions', summary: 'A board’s permission entries' },
  'PUT /api/users': { tag: 'Boards', summary: 'Set a board’s members' },

  ...Object.fromEntries(collectionList.flatMap((def) => Object.entries(collectionDocs(def)))),
  'POST /api/:teamId/batch': { tag: 'Sync', summary: 'Send several writes in one call', description: 'Each request is judged like the direct call; with `transaction` they apply together or not at all.', body: batchBody },
  'GET /api/:teamId/changes': { tag: 'Sync', summary: 'The change feed after a cursor', description: 'Answers the records saved and deleted since `after`, and the next cursor (docs/sync-protocol.md).', query: z.object({ after: z.string().describe('The cursor of the last page, 0 at first.'), board_id: z.string().optional(), format: z.enum(['1', '2']).optional().describe('2: the lean wire format (field names once per shape, decision 0320); 1, the default: one object per change.') }) },
  'GET /api/:teamId/trash': { tag: 'Sync', summary: 'A board’s trash', query: boardQuery },
  'GET /api/:teamId/comments/multiple': { tag: 'Sync', summary: 'Comments of several items', query: boardQuery.extend({ item_ids: z.string().describe('Comma-separated item ids.') }) },
  'GET /api/:teamId/activity': { tag: 'Activity', summary: 'A board’s or an item’s activity log', query: activityQuery },
  'GET /api/:teamId/time-tracking/:boardId': { tag: 'Time tracking', summary: 'A board’s time entries' },
  'POST /api/:teamId/time-tracking': { tag: 'Time tracking', summary: 'Start or stop the timer on an item' },

  'GET /api/boards/:boardId/public': { tag: 'Boards', summary: 'A public board’s data', auth: 'optional-bearer' },
  'POST /api/boards/:boardId/unlock': { tag: 'Boards', summary: 'Unlock a password-protected public board', auth: 'optional-bearer' },
  'GET /api/:teamId/boards/:boardId/password': { tag: 'Boards', summary: 'Whether a board has a password' },
  'PUT /api/:teamId/boards/:boardId/password': { tag: 'Boards', summary: 'Set or clear a board’s password' },

  'GET /api/notifications': { tag: 'Notifications', summary: 'The user’s notifications', query: notificationListQuery },
  'GET /api/notifications/unread-count': { tag: 'Notifications', summary: 'How many are unread' },
  'PUT /api/notifications/read': { tag: 'Notifications', summary: 'Mark notifications read', body: notificationIdsBody },
  'PUT /api/notifications/unread': { tag: 'Notifications', summary: 'Mark notifications unread', body: notificationIdsBody },
  'PUT /api/notifications/read-all': { tag: 'Notifications', summary: 'Mark every notification read', body: readAllBody },
  'POST /api/notifications/device-tokens': { tag: 'Notifications', summary: 'Register a push subscription', body: deviceTokenBody },
  'DELETE /api/notifications/device-tokens': { tag: 'Notifications', summary: 'Remove a push subscription', body: deviceTokenBody },
  'GET /api/notifications/vapid-public-key': { tag: 'Notifications', summary: 'The Web Push public key' },
  'GET /api/me/notification-settings': { tag: 'Notifications', summary: 'Which notifications go where' },
  'PUT /api/me/notification-settings': { tag: 'Notifications', summary: 'Change notification settings', body: notificationSettingsBody },
  'GET /api/:teamId/items/:itemId/follow': { tag: 'Notifications', summary: 'Whether the user follows an item' },
  'PUT /api/:teamId/items/:itemId/follow': { tag: 'Notifications', summary: 'Follow an item' },
  'DELETE /api/:teamId/items/:itemId/follow': { tag: 'Notifications', summary: 'Stop following an item' },

  'GET /api/:teamId/automations/runs': { tag: 'Automations', summary: 'A board’s automation run log', query: boardQuery },
  'GET /api/:teamId/automations/usage': { tag: 'Automations', summary: 'This month’s automation runs', query: boardQuery },

  'PUT /api/:teamId/hooks/:hookId': { tag: 'Webhooks', summary: 'Create or update a webhook', description: 'On create the answer’s `data.secret` signs deliveries (`X-Cairn-Signature: sha256=<hex HMAC-SHA256(secret, raw body)>`), shown this once.', body: hookSaveBody },
  'DELETE /api/:teamId/hooks/:hookId': { tag: 'Webhooks', summary: 'Delete a webhook' },
  'GET /api/me/hooks': { tag: 'Webhooks', summary: 'Your webhooks across workspaces (never their secrets)' },
  'GET /api/:teamId/hooks/:hookId/logs': { tag: 'Webhooks', summary: 'A webhook’s delivery log, newest first (30 days)', query: z.object({ limit: z.string().optional().describe('At most this many entries.') }) },
  'POST /api/:teamId/hooks/:hookId/test': { tag: 'Webhooks', summary: 'Send a test delivery' },

  'GET /api/templates': { tag: 'Templates', summary: 'The template gallery', description: 'Built-in templates and those shared with the caller (their workspaces, or by link), filtered by `tag` and searched by `q`.', query: z.object({ tag: z.string().optional(), q: z.string().optional() }) },
  'GET /api/templates/:templateId': { tag: 'Templates', summary: 'One template with its content', description: '404 "This template is not available or has not been shared with you." for one the caller may not see.' },
  'GET /api/me/templates': { tag: 'Templates', summary: 'Your templates, or those shared with you (`shared=1`)', query: z.object({ shared: z.string().optional() }) },
  'PUT /api/me/templates/:templateId': { tag: 'Templates', summary: 'Edit your template', description: 'Name, description, cover image address, tags.', body: editTemplateBody },
  'POST /api/me/templates/:templateId/share': { tag: 'Templates', summary: 'Share your template', description: 'With workspaces you belong to and/or by link; none at all is "A template needs at least one workspace."', body: shareTemplateBody },
  'DELETE /api/me/templates/:templateId': { tag: 'Templates', summary: 'Delete your template' },
  'POST /api/:teamId/boards/:boardId/template': { tag: 'Templates', summary: 'Save a board or folder as a template', description: 'With or without items; needs SAVE_AS_TEMPLATE and copies only what the caller can read.', body: saveAsTemplateBody },
  'POST /api/:teamId/templates/:templateId/use': { tag: 'Templates', summary: 'Make a board from a template', description: 'Needs CREATE_BOARD; every record gets a new id and references are rewritten.', body: useTemplateBody },
  'POST /api/:teamId/boards/:boardId/duplicate': { tag: 'Templates', summary: 'Duplicate a board as a background job', description: 'Needs CREATE_BOARD and a board the caller views; answers the board job (GET /api/me/board-jobs/{jobId} for progress).', body: duplicateBoardBody },

  'POST /api/broadcasting/multi-auth': { tag: 'Realtime', summary: 'Authorise realtime channel subscriptions', auth: 'optional-bearer' },
  'POST /apps/:appId/events': { tag: 'Realtime', summary: 'Pusher HTTP API: trigger an event', auth: 'app-signature' },
  'POST /apps/:appId/batch_events': { tag: 'Realtime', summary: 'Pusher HTTP API: trigger several events', auth: 'app-signature' },
};
