import type { Notification } from '../../schema/notifications';
import { translator, type Translate } from '../i18n/catalogs';

/**
 * What a notification says outside the app — in the batched mail and in a Web Push — and where it
 * leads (the notification-to-route mapping of workspace.md §2, with `notification={id}` so opening
 * it marks it read). In the recipient's language (decision 0155): callers pass the translator of
 * the user's locale (`translator(users.locale)`); English when none is given.
 */

const english = translator('en');

export function notificationTitle(n: Notification, l10n: Translate = english): string {
  const who = n.created_by_name ?? l10n('Someone');
  const item = n.item_name || l10n('an item');
  switch (n.notification_type) {
    case 'members_attribute_added':
      return l10n('{who} added you to {attribute} of {item}', { who, attribute: n.attribute_name ?? l10n('a members field'), item });
    case 'form_submitted':
      return l10n('{form} was submitted: {item}', { form: n.form_name ?? l10n('A form'), item });
    case 'comment_created':
      return l10n('{who} commented on {item}', { who, item });
    case 'comment_reaction_created':
      return n.body ? l10n('{who} reacted {reaction} to your comment on {item}', { who, reaction: n.body, item }) : l10n('{who} reacted to your comment on {item}', { who, item });
    case 'comment_mentioned':
      return l10n('{who} mentioned you on {item}', { who, item });
    case 'template_shared':
      return n.template_name ? l10n('{who} shared the template {template} with you', { who, template: n.template_name }) : l10n('{who} shared a template with you', { who });
    case 'automation_item':
      return l10n('Autobot on {item}', { item });
    case 'automation_board':
      return l10n('Autobot on {board}', { board: n.board_name ?? l10n('a board') });
    case 'automation_runs_warning':
      return l10n('Automations have used 80% of this month’s runs');
    case 'automation_runs_exceeded':
      return l10n('Automations have used all of this month’s runs and are off until next month');
    case 'storage_warning':
      return l10n('Your workspace has used 80% of its storage');
    case 'storage_exceeded':
      return l10n('Your workspace’s storage is full: uploads are blocked');
    case 'hook_deactivated':
      return l10n('A webhook was switched off after 50 failed deliveries in a row');
    case 'board_job_done':
      return l10n('Your job on {board} is done', { board: n.board_name ?? l10n('a board') });
    case 'board_job_failed':
      return l10n('Your job on {board} failed; nothing it wrote was kept', { board: n.board_name ?? l10n('a board') });
    case 'board_moved':
      return l10n('{who} moved {board} to another workspace', { who, board: n.board_name ?? l10n('a board') });
    case 'user_subscribed':
      return n.subscribeable_type === 'ITEM' ? l10n('{who} subscribed to {item}', { who, item }) : l10n('{who} subscribed to a view', { who });
    default:
      return l10n('New notification');
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
    case 'board_job_done':
    case 'board_job_failed':
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
