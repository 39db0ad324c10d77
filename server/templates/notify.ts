import type { DomainEvent } from '../events/types';
import type { NotifyContext } from '../notifications/notify';
import { notifyTemplateShared } from '../notifications/emit';

/**
 * `template.shared` (a template shared with a workspace, server/templates/store.ts addShares):
 * the workspace's members are told, except whoever shared it; called by the notifications
 * consumer, so the notifications commit with its cursor. A share taken back before the consumer
 * got to it tells nobody.
 */
export async function templateSharedNotifications(event: DomainEvent, c: NotifyContext): Promise<void> {
  const templateId = event.record_id;
  if (!templateId) return;
  const still = await c.db
    .selectFrom('template_shares')
    .innerJoin('templates', 'templates.id', 'template_shares.template_id')
    .select(['templates.name'])
    .where('template_shares.template_id', '=', templateId)
    .where('template_shares.team_id', '=', event.team_id)
    .executeTakeFirst();
  if (!still) return;
  const [team, members] = await Promise.all([
    c.db.selectFrom('teams').select('owner_id').where('id', '=', event.team_id).executeTakeFirst(),
    c.db.selectFrom('team_members').select('user_id').where('team_id', '=', event.team_id).where('verified_at', 'is not', null).execute(),
  ]);
  if (!team) return;
  const userIds = [...new Set([team.owner_id, ...members.map((m) => m.user_id)])].filter((id) => id !== event.actor_id);
  if (userIds.length === 0) return;
  await notifyTemplateShared(c, event.id, { teamId: event.team_id, templateId, templateName: still.name, userIds, actorId: event.actor_id });
}
