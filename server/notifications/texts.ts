import type { Notification } from '../../schema/notifications';

/**
 * What a notification says outside the app — in the batched mail and in a Web Push — and where it
 * leads (the notification-to-route mapping of workspace.md §2, with `notification={id}` so opening
 * it marks it read). English, like the server's other mails; the app's own texts are translated
 * (the service worker may rebuild a push's text from the notification it carries).
 */

export function notificationTitle(n: Notification): string {
  const who = n.created_by_name ?? 'Someone';
  const item = n.item_name || 'an item';
  switch (n.notification_type) {
    case 'members_attribute_added':
      return `${who} added you to ${n.attribute_name ?? 'a members field'} of ${item}`;
    case 'form_submitted':
      return `${n.form_name ?? 'A form'} was submitted: ${item}`;
    case 'comment_created':
      return `${who} commented on ${item}`;
    case 'comment_reaction_created':
      return `${who} reacted ${n.body ?? ''} to your comment on ${item}`.replace(/\s+/g, ' ');
    case 'comment_mentioned':
      return `${who} mentioned you on ${item}`;
    case 'template_shared':
      return `${who} shared the template ${n.template_name ?? ''} with you`.replace(/\s+/g, ' ').trim();
    case 'automation_item':
      return `Autobot on ${item}`;
    case 'automation_board':
      return `Autobot on ${n.board_name ?? 'a board'}`;
    case 'automation_runs_warning':
      return 'Automations have used 80% of this month’s runs';
    case 'automation_runs_exceeded':
      return 'Automations have used all of this month’s runs and are off until next month';
    case 'storage_warning':
      return 'Your workspace has used 80% of its storage';
    case 'storage_exceeded':
      return 'Your workspace’s storage is full: uploads are blocked';
    case 'hook_deactivated':
      return 'A webhook was switched off after 50 failed deliveries in a row';
    case 'user_subscribed':
      return `${who} subscribed to ${n.subscribeable_type === 'ITEM' ? item : 'a view'}`;
    default:
      return 'New notification';
  }
}

/** The second line: a comment's words, an automation's message, the board. */
export function notificationBody(n: Notification): string {
  if (n.notification_type === 'comment_reaction_created') return n.board_name ?? '';
  return n.body ?? n.board_name ?? '';
}

/** The app path a notification opens (null: no navigation, e.g. an unknown type). */
export function notificationPath(n: Notification): string | null {
  const item = (tab: 'attributes' | 'comments', comment?: string | null) => {
    if (!n.board_id || !n.item_id) return null;
    const query = new URLSearchParams({ t: tab, ...(comment ? { comment } : {}), notification: n.id });
    return `/b/${enc(n.board_id)}/${enc(n.folder_id ?? n.board_id)}/${enc(n.item_id)}?${query}`;
  };
  const board = (query: Record<string, string> = {}) => (n.board_id ? `/b/${enc(n.board_id)}?${new URLSearchParams({ ...query, notification: n.id })}` : null);
  switch (n.notification_type) {
    case 'members_attribute_added':
    case 'form_submitted':
      return item('attributes');
    case 'comment_created':
    case 'comment_reaction_created':
    case 'comment_mentioned':
      return item('comments', n.comment_id);
    case 'template_shared':
      return n.template_id ? `/profile/templates/${enc(n.template_id)}?notification=${n.id}` : null;
    case 'automation_item':
      return n.board_id && n.item_id ? `/b/${enc(n.board_id)}/${enc(n.folder_id ?? n.board_id)}/${enc(n.item_id)}?notification=${n.id}` : null;
    case 'automation_board':
      return board();
    case 'automation_runs_warning':
    case 'automation_runs_exceeded':
      return board({ t: 'usage', automations: '1' });
    case 'storage_warning':
    case 'storage_exceeded':
      return `/profile/billing?notification=${n.id}`;
    case 'hook_deactivated':
      return `/profile/developer/hooks?notification=${n.id}`;
    case 'user_subscribed':
      if (n.subscribeable_type === 'ITEM') return item('attributes');
      return n.board_id ? `/b/${enc(n.board_id)}/${enc(n.folder_id ?? n.board_id)}?${new URLSearchParams({ view: n.subscribeable_id ?? '', notification: n.id })}` : null;
    default:
      return null;
  }
}

const enc = encodeURIComponent;
