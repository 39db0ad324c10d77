import { pathFor } from '../../schema/routes';
import type { Notification } from '../../schema/notifications';

/**
 * Where a notification leads (workspace.md §2, notification-to-route mapping). Pure: the panel,
 * the desktop notification and tests share it. Null: the type has no target (or lacks the ids it
 * needs), and a click only marks it read.
 *
 * The current `view` query is carried over (workspace.md §2) when the target is on the same board:
 * a view id names a view of one board, so another board's view would open nothing.
 */
export interface NotificationTarget {
  href: string;
}

type Search = Record<string, string | undefined>;

export function notificationTarget(n: Notification, current: { boardId?: string | null; view?: string | null } = {}): NotificationTarget | null {
  const carryView = (boardId: string | null): Search => (current.view && boardId && current.boardId === boardId ? { view: current.view } : {});
  switch (n.notification_type) {
    case 'members_attribute_added':
    case 'form_submitted':
      return item(n, n.item_id, { t: 'attributes', ...carryView(n.board_id) });
    case 'comment_created':
    case 'comment_reaction_created':
    case 'comment_mentioned':
      return item(n, n.item_id, { t: 'comments', comment: n.comment_id ?? undefined, ...carryView(n.board_id) });
    case 'automation_item':
      return item(n, n.item_id, carryView(n.board_id));
    case 'automation_board':
    case 'board_job_done':
    case 'board_job_failed':
      return n.board_id ? { href: withQuery(pathFor('board', { rootId: n.board_id }), carryView(n.board_id)) } : null;
    case 'automation_runs_warning':
    case 'automation_runs_exceeded':
      // The board's usage tab, with the automations flag (which figure to show first).
      return n.board_id ? { href: withQuery(pathFor('folder', { rootId: n.board_id, folderId: n.folder_id ?? n.board_id }), { t: 'usage', automations: '1', ...carryView(n.board_id) }) } : null;
    case 'storage_warning':
    case 'storage_exceeded':
      return { href: pathFor('profile.billing') };
    case 'hook_deactivated':
      return { href: pathFor('profile.developer.hooks') };
    case 'board_moved':
      // The board has left the workspace: its owner is taken to the workspace's boards.
      return n.team_id ? { href: pathFor('team.boards', { teamId: n.team_id }) } : null;
    case 'template_shared':
      return n.template_id ? { href: pathFor('custom-templates.templates.landing', { templateId: n.template_id }) } : null;
    case 'user_subscribed':
      if (n.subscribeable_type === 'ITEM') return item(n, n.subscribeable_id ?? n.item_id, { t: 'attributes', ...carryView(n.board_id) });
      if (n.subscribeable_type === 'FOLDERVIEW' && n.board_id) {
        return { href: withQuery(pathFor('folder', { rootId: n.board_id, folderId: n.folder_id ?? n.board_id }), { view: n.subscribeable_id ?? undefined }) };
      }
      return null;
    default:
      return null;
  }
}

function item(n: Notification, itemId: string | null, query: Search): NotificationTarget | null {
  if (!n.board_id || !itemId) return null;
  return { href: withQuery(pathFor('folder', { rootId: n.board_id, folderId: n.folder_id ?? n.board_id, itemId }), query) };
}

export function withQuery(path: string, query: Search): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, value);
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** The href a desktop or push notification opens: the target, marking it read on arrival (`?notification=`). */
export function openingHref(n: Notification): string {
  const target = notificationTarget(n)?.href ?? '/';
  return target + (target.includes('?') ? '&' : '?') + `notification=${encodeURIComponent(n.id)}`;
}
