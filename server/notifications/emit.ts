import type { NotificationType, SubscribeableType } from '../../schema/notifications';
import { loadTeam } from '../sync/access';
import { loadTeamFolders, ReadView } from '../sync/reads';
import { ItemAudience, rolesIn } from './audience';
import { itemFacts } from './facts';
import { notify, userName, type NotifyContext } from './notify';
import type { NotificationDraft, NotificationRow } from './store';

/**
 * Notifications that later features raise (forms, templates, subscriptions, automations, plan
 * limits), ready to call. Call them from an event consumer or a job — never from a route handler —
 * with that consumer's or job's context, so the notifications commit with its work. `cause` must
 * name the cause uniquely (an event id, a job key): a second call with it creates nothing.
 * Each one drops recipients who may not read what it points at, and the actor.
 */

/** The automation bot's name (workspace.md §3, special users). */
export const AUTOBOT_NAME = 'Autobot';

type Extra = Partial<Omit<NotificationDraft, 'user_id' | 'notification_type' | 'dedupe_key'>>;

/** To the users who may read the item. */
async function toItemReaders(c: NotifyContext, cause: string, type: NotificationType, input: { teamId: number; itemId: string; userIds: number[]; actorId: number | null }, extra: Extra = {}): Promise<NotificationRow[]> {
  const audience = await ItemAudience.load(c.db, input.teamId, input.itemId, input.userIds);
  if (!audience?.item) return [];
  const facts = { ...(await itemFacts(c.db, input.teamId, audience, input.actorId)), ...extra };
  return notify(c, audience.readers(input.userIds).map((user_id) => ({ ...facts, user_id, notification_type: type, dedupe_key: `${cause}:${type}` })),
  );
}

/** To the users who may view the board. */
async function toBoardReaders(c: NotifyContext, cause: string, type: NotificationType, input: { teamId: number; boardId: string; userIds: number[]; actorId: number | null }, extra: Extra = {}): Promise<NotificationRow[]> {
  const team = await loadTeam(c.db, input.teamId);
  if (!team) return [];
  const folders = await loadTeamFolders(c.db, input.teamId);
  const board = folders.find((f) => f.folder.id === input.boardId && !f.trashed)?.folder;
  if (!board) return [];
  const roles = await rolesIn(c.db, team, input.userIds);
  const readers = input.userIds.filter((id) => new ReadView(team, { id, role: roles.get(id) ?? 'guest' }, folders).canViewFolder(input.boardId));
  const facts = { team_id: input.teamId, board_id: input.boardId, board_name: board.name, actor_id: input.actorId, created_by_name: await userName(c.db, input.actorId), ...extra };
  return notify(c, readers.map((user_id) => ({ ...facts, user_id, notification_type: type, dedupe_key: `${cause}:${type}` })),
  );
}

/** Someone submitted a form: the item it created, for the people given (the form's watchers). */
export function notifyFormSubmitted(c: NotifyContext, cause: string, input: { teamId: number; itemId: string; formName: string; userIds: number[]; actorId: number | null }): Promise<NotificationRow[]> {
  return toItemReaders(c, cause, 'form_submitted', input, { form_name: input.formName });
}

/** Someone subscribed to an item (ITEM) or a folder view (FOLDERVIEW). */
export function notifyUserSubscribed(
  c: NotifyContext,
  cause: string,
  input: { teamId: number; subscribeableType: SubscribeableType; subscribeableId: string; boardId: string; folderId?: string | null; itemId?: string | null; userIds: number[]; actorId: number | null },
): Promise<NotificationRow[]> {
  const extra = { subscribeable_type: input.subscribeableType, subscribeable_id: input.subscribeableId };
  if (input.subscribeableType === 'ITEM' && input.itemId) return toItemReaders(c, cause, 'user_subscribed', { ...input, itemId: input.itemId }, extra);
  return toBoardReaders(c, cause, 'user_subscribed', input, { ...extra, folder_id: input.folderId ?? null });
}

/** A template was shared with these users (template landing page; templates live outside a workspace's folders). */
export async function notifyTemplateShared(c: NotifyContext, cause: string, input: { teamId: number | null; templateId: string; templateName: string; userIds: number[]; actorId: number | null }): Promise<NotificationRow[]> {
  const created_by_name = await userName(c.db, input.actorId);
  return notify(c, input.userIds.map((user_id) => ({
      user_id,
      notification_type: 'template_shared',
      dedupe_key: `${cause}:template_shared`,
      team_id: input.teamId,
      template_id: input.templateId,
      template_name: input.templateName,
      actor_id: input.actorId,
      created_by_name,
    })),
  );
}

/** An automation's notify action on an item (`itemId`) or on a board; shown as from Autobot. */
export function notifyAutomation(c: NotifyContext, cause: string, input: { teamId: number; boardId: string; itemId?: string | null; body: string; userIds: number[] }): Promise<NotificationRow[]> {
  const extra = { body: input.body, created_by_name: AUTOBOT_NAME };
  if (input.itemId) return toItemReaders(c, cause, 'automation_item', { teamId: input.teamId, itemId: input.itemId, userIds: input.userIds, actorId: null }, extra);
  return toBoardReaders(c, cause, 'automation_board', { ...input, actorId: null }, extra);
}

/**
 * A plan limit crossed: automation runs (the board's usage tab) or storage (billing). Warning at
 * 80 %, exceeded at 100 % (workspace.md §4, §9); below 80 % nothing is sent. `cause` should name
 * the period (e.g. `runs:{teamId}:{yyyy-mm}`) so each threshold is told once per period.
 */
export async function notifyLimit(c: NotifyContext, cause: string, input: { teamId: number; kind: 'automation_runs' | 'storage'; usage: number; limit: number; boardId?: string | null; userIds: number[] }): Promise<NotificationRow[]> {
  const rate = input.limit > 0 ? input.usage / input.limit : 1;
  if (rate < 0.8) return [];
  const type: NotificationType = `${input.kind}_${rate >= 1 ? 'exceeded' : 'warning'}`;
  return notify(c, input.userIds.map((user_id) => ({ user_id, notification_type: type, dedupe_key: `${cause}:${type}`, team_id: input.teamId, board_id: input.boardId ?? null, usage: input.usage, limit: input.limit })),
  );
}

/** A webhook was switched off after failing again and again: its owner is told (body: its URL). */
export function notifyHookDeactivated(c: NotifyContext, cause: string, input: { teamId: number; userId: number; url: string }): Promise<NotificationRow[]> {
  return notify(c, [{ user_id: input.userId, notification_type: 'hook_deactivated', dedupe_key: `${cause}:hook_deactivated`, team_id: input.teamId, body: input.url }]);
}

/**
 * A background board job (import, duplicate, move; decision 0160) ended: done (body: what it
 * made) or failed (body: why). To the one who started it, if they may still view the board.
 */
export function notifyBoardJob(c: NotifyContext, cause: string, input: { teamId: number; boardId: string; userId: number; ok: boolean; body: string }): Promise<NotificationRow[]> {
  return toBoardReaders(c, cause, input.ok ? 'board_job_done' : 'board_job_failed', { teamId: input.teamId, boardId: input.boardId, userIds: [input.userId], actorId: null }, { body: input.body });
}
