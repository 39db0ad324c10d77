import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { Notification, NotificationType } from '../../schema/notifications';

/**
 * What a notification says (workspace.md §8 desktop texts): a title naming who did what, and a
 * body with the words that matter (the comment, the item, the figures). The panel, the desktop
 * notification and the settings screen read them from here, translated in the tab's locale.
 */
export interface NotificationText {
  title: string;
  body: string;
}

export function notificationText(n: Notification, i18n: I18n): NotificationText {
  const who = n.created_by_name || i18n._(msg`Someone`);
  const item = n.item_name || i18n._(msg`an item`);
  const board = n.board_name || i18n._(msg`a board`);
  const attribute = n.attribute_name || i18n._(msg`a members field`);
  const form = n.form_name || i18n._(msg`A form`);
  const template = n.template_name || i18n._(msg`a template`);
  const percent = n.usage !== null && n.limit ? Math.round((n.usage / n.limit) * 100) : 80;
  const usage = n.usage ?? 0;
  const limit = n.limit ?? 0;
  const said = n.body ?? '';
  switch (n.notification_type) {
    case 'members_attribute_added':
      return { title: i18n._(msg`${who} added you to ${attribute}`), body: item };
    case 'form_submitted':
      return { title: i18n._(msg`${form} was submitted`), body: i18n._(msg`New item ${item} on ${board}`) };
    case 'comment_created':
      return { title: i18n._(msg`${who} commented on ${item}`), body: said };
    case 'comment_reaction_created':
      return { title: i18n._(msg`${who} reacted to your comment on ${item}`), body: said };
    case 'comment_mentioned':
      return { title: i18n._(msg`${who} mentioned you on ${item}`), body: said };
    case 'template_shared':
      return { title: i18n._(msg`${who} shared the template ${template} with you`), body: '' };
    case 'automation_item':
      return { title: i18n._(msg`Automation on ${item}`), body: said };
    case 'automation_board':
      return { title: i18n._(msg`Automation on ${board}`), body: said };
    case 'automation_runs_warning':
      return { title: i18n._(msg`Your automations have used ${percent}% of this month’s runs`), body: i18n._(msg`${usage} of ${limit} runs used.`) };
    case 'automation_runs_exceeded':
      return { title: i18n._(msg`Your automations have used all of this month’s runs`), body: i18n._(msg`Automations are turned off until next month.`) };
    case 'storage_warning':
      return { title: i18n._(msg`Storage is ${percent}% full`), body: i18n._(msg`Uploads stop when storage is full.`) };
    case 'storage_exceeded':
      return { title: i18n._(msg`Storage is full`), body: i18n._(msg`Uploads are blocked until space is freed or the plan is upgraded.`) };
    case 'user_subscribed': {
      const name = n.subscribeable_type === 'FOLDERVIEW' ? board : item;
      return { title: i18n._(msg`${who} subscribed to ${name}`), body: '' };
    }
    case 'hook_deactivated':
      return { title: i18n._(msg`A webhook was switched off after 50 failed deliveries`), body: said };
    case 'board_job_done':
      return { title: i18n._(msg`Your job on ${board} is done`), body: said };
    case 'board_job_failed':
      return { title: i18n._(msg`Your job on ${board} failed; nothing it wrote was kept`), body: said };
    case 'board_moved':
      return { title: i18n._(msg`${who} moved ${board} to another workspace`), body: said };
    default:
      return { title: i18n._(msg`New notification`), body: said };
  }
}

/** The name of each type on /profile/notifications. */
export const notificationTypeLabels: Record<NotificationType, MessageDescriptor> = {
  comment_mentioned: msg`Mentions`,
  comment_created: msg`Comments on items you follow`,
  comment_reaction_created: msg`Reactions to your comments`,
  members_attribute_added: msg`Added to a members field`,
  form_submitted: msg`Form submissions`,
  user_subscribed: msg`Subscriptions`,
  template_shared: msg`Shared templates`,
  automation_item: msg`Automation messages on items`,
  automation_board: msg`Automation messages on boards`,
  automation_runs_warning: msg`Automation runs at 80%`,
  automation_runs_exceeded: msg`Automation runs used up`,
  storage_warning: msg`Storage at 80%`,
  storage_exceeded: msg`Storage full`,
  hook_deactivated: msg`Webhooks switched off`,
  board_job_done: msg`Imports and other board jobs finished`,
  board_job_failed: msg`Imports and other board jobs that failed`,
  board_moved: msg`Boards moved out of your workspace`,
};
