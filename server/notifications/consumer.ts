import type { DomainEvent } from '../events/types';
import { commentPlainText, mentionedUserIds } from '../../schema/comment-html';
import type { NotificationType } from '../../schema/notifications';
import { findRecord } from '../sync/store';
import { ItemAudience } from './audience';
import { followAutomatically, followersOf } from './follows';
import { existingUsers, notify, type NotifyContext } from './notify';
import { notifyFormSubmitted, notifyUserSubscribed } from './emit';
import { itemFacts } from './facts';
import { templateSharedNotifications } from '../templates/notify';
import type { NotificationDraft } from './store';

/**
 * The notifications consumer: turns domain events into notifications and automatic follows.
 *   item.created             → the creator follows the item
 *   item.deleted             → its follows go (removed for good, not trashed)
 *   member.removed           → the user's follows and notifications of that workspace go
 *   value.created / updated  → people added to a members attribute are told, and follow
 *   comment.created          → mentioned people are told (and follow); followers are told of the comment;
 *                              the author follows
 *   comment.updated          → people newly mentioned by the edit are told
 *   reaction.created         → the comment's author is told
 *   template.shared          → the workspace's members are told (server/templates/notify.ts)
 *   item.followed            → someone followed an item by hand: its other followers are told
 *                              "user subscribed" (W2.15)
 *   item.created by a form   → the form's owner is told "form submitted" (server/forms, decision 0130)
 * Nobody is told of their own action, and nobody who cannot read the item (ItemAudience).
 */
export async function notificationsForEvent(event: DomainEvent, c: NotifyContext): Promise<void> {
  switch (event.type) {
    case 'item.created':
      if (event.actor_id !== null && event.record_id) await followAutomatically(c.db, event.team_id, event.record_id, [event.actor_id], 'creator', new Date(event.created_at));
      return formSubmitted(event, c);
    case 'item.deleted':
      // Gone for good: nobody follows it any more. Its notifications stay (the app says the item is gone).
      if (event.record_id) await c.db.deleteFrom('item_follows').where('item_id', '=', event.record_id).where('team_id', '=', event.team_id).execute();
      return;
    case 'member.removed': {
      // Out of the workspace: their follows there end, and its notifications (names of items they
      // may no longer see) leave their list.
      const userId = Number(event.record_id);
      if (!Number.isSafeInteger(userId)) return;
      await c.db.deleteFrom('item_follows').where('team_id', '=', event.team_id).where('user_id', '=', userId).execute();
      await c.db.deleteFrom('notifications').where('team_id', '=', event.team_id).where('user_id', '=', userId).execute();
      return;
    }
    case 'value.created':
    case 'value.updated':
      return membersAdded(event, c);
    case 'comment.created':
      return commentWritten(event, c, true);
    case 'comment.updated':
      return commentWritten(event, c, false);
    case 'reaction.created':
      return reactionAdded(event, c);
    case 'template.shared':
      return templateSharedNotifications(event, c);
    case 'item.followed':
      return userSubscribed(event, c);
    default:
      return;
  }
}

const userIds = (value: unknown): number[] => (Array.isArray(value) ? value.filter((v): v is number => Number.isSafeInteger(v) && v > 0) : []);

async function membersAdded(event: DomainEvent, c: NotifyContext): Promise<void> {
  if (!event.item_id || !event.record_id || !event.after || !('value' in event.after)) return;
  const attributeId = typeof event.after.attribute_id === 'string' ? event.after.attribute_id : event.record_id.slice(event.item_id.length + 1);
  const attribute = await findRecord(c.db, 'attribute', attributeId);
  if (!attribute || attribute.data.kind !== 'members') return;
  const before = new Set(event.type === 'value.created' ? [] : userIds(event.before?.value));
  const added = userIds(event.after.value).filter((id) => !before.has(id));
  if (added.length === 0) return;
  const audience = await ItemAudience.load(c.db, event.team_id, event.item_id, added);
  if (!audience?.item) return;
  const known = await existingUsers(c.db, added);
  const readers = audience.readers(added.filter((id) => known.has(id)));
  await followAutomatically(c.db, event.team_id, event.item_id, readers, 'assignee', new Date(event.created_at));
  const facts = await itemFacts(c.db, event.team_id, audience, event.actor_id);
  const attribute_name = typeof attribute.data.name === 'string' ? attribute.data.name : null;
  await notify(c, readers.map((user_id) => ({ ...facts, user_id, notification_type: 'members_attribute_added', dedupe_key: `${event.id}:members_attribute_added`, attribute_name })),
  );
}

async function commentWritten(event: DomainEvent, c: NotifyContext, created: boolean): Promise<void> {
  const html = htmlOf(event.after);
  if (!event.item_id || !event.record_id || html === null) return;
  // An edit tells only the people it mentions for the first time.
  const before = created ? new Set<number>() : new Set(mentionedUserIds(htmlOf(event.before) ?? ''));
  const known = await existingUsers(
    c.db,
    mentionedUserIds(html).filter((id) => !before.has(id)),
  );
  const mentioned = [...known];
  const at = new Date(event.created_at);
  const followers = created ? await followersOf(c.db, event.item_id, at) : [];
  const audience = await ItemAudience.load(c.db, event.team_id, event.item_id, [...mentioned, ...followers]);
  if (!audience?.item) return;
  const mentionedReaders = audience.readers(mentioned);
  if (created && event.actor_id !== null) await followAutomatically(c.db, event.team_id, event.item_id, [event.actor_id], 'commenter', at);
  await followAutomatically(c.db, event.team_id, event.item_id, mentionedReaders, 'mentioned', at);

  const facts = { ...(await itemFacts(c.db, event.team_id, audience, event.actor_id)), comment_id: event.record_id, body: commentPlainText(html) };
  const draft = (user_id: number, type: NotificationType): NotificationDraft => ({ ...facts, user_id, notification_type: type, dedupe_key: `${event.id}:${type}` });
  // A mention says more than "a comment on an item you follow": one notification each, the mention.
  const told = new Set(mentionedReaders);
  const drafts = [...mentionedReaders.map((id) => draft(id, 'comment_mentioned')), ...audience.readers(followers.filter((id) => !told.has(id))).map((id) => draft(id, 'comment_created'))];
  await notify(c, drafts);
}

function htmlOf(fields: Record<string, unknown> | null): string | null {
  const text = fields?.text as { html?: unknown } | undefined;
  return typeof text?.html === 'string' ? text.html : null;
}

async function reactionAdded(event: DomainEvent, c: NotifyContext): Promise<void> {
  const commentId = typeof event.after?.comment_id === 'string' ? event.after.comment_id : null;
  if (!commentId || !event.record_id) return;
  const comment = await findRecord(c.db, 'comment', commentId);
  if (!comment || comment.deleted_at !== null) return;
  const author = typeof comment.data.created_by === 'number' ? comment.data.created_by : comment.created_by;
  const itemId = event.item_id ?? (typeof comment.data.item_id === 'string' ? comment.data.item_id : null);
  if (author === null || author === event.actor_id || !itemId) return;
  const audience = await ItemAudience.load(c.db, event.team_id, itemId, [author]);
  if (!audience?.item || !audience.canRead(author)) return;
  const facts = await itemFacts(c.db, event.team_id, audience, event.actor_id);
  const reaction = typeof event.after?.reaction === 'string' ? event.after.reaction : null;
  await notify(c, [{ ...facts, user_id: author, notification_type: 'comment_reaction_created', dedupe_key: `${event.id}:comment_reaction_created`, comment_id: commentId, body: reaction }]);
}

/**
 * An item a public form created (written as the form's owner, `via.form_id` on its event): the
 * owner is told. The visitor is nobody, so the notification has no actor (the owner's own write
 * would otherwise be "their own action").
 */
async function formSubmitted(event: DomainEvent, c: NotifyContext): Promise<void> {
  const via = event.via as { form_id?: unknown; form_name?: unknown; form_owner_id?: unknown } | null | undefined;
  if (!via || typeof via.form_id !== 'string' || !event.record_id) return;
  const owner = typeof via.form_owner_id === 'number' ? via.form_owner_id : event.actor_id;
  if (owner === null) return;
  await notifyFormSubmitted(c, event.id, { teamId: event.team_id, itemId: event.record_id, formName: typeof via.form_name === 'string' ? via.form_name : '', userIds: [owner], actorId: null });
}

/** Someone followed an item by hand: those who followed it before are told (user_subscribed, ITEM). */
async function userSubscribed(event: DomainEvent, c: NotifyContext): Promise<void> {
  const itemId = event.record_id;
  const boardId = (event.after as { board_id?: unknown } | null)?.board_id;
  if (!itemId || typeof boardId !== 'string' || event.actor_id === null) return;
  const followers = (await followersOf(c.db, itemId, new Date(event.created_at))).filter((id) => id !== event.actor_id);
  if (followers.length === 0) return;
  await notifyUserSubscribed(c, event.id, { teamId: event.team_id, subscribeableType: 'ITEM', subscribeableId: itemId, boardId, itemId, userIds: followers, actorId: event.actor_id });
}
