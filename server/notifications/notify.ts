import type { JobQueue } from '../jobs/types';
import type { Db } from '../sync/store';
import { insertNotifications, type NotificationDraft, type NotificationRow } from './store';

/**
 * The one way notifications come into being: written through the caller's transaction (an event
 * consumer's or a job's, so they exist exactly when the cause counts as handled), then handed to
 * the delivery job (realtime, mail, push) that runs after that transaction commits.
 */

export interface NotifyContext {
  db: Db;
  jobs: JobQueue;
  now(): Date;
}

export const DELIVER_JOB = 'notifications.deliver';
export interface DeliverPayload {
  ids: string[];
}

/**
 * Creates the notifications (never to the one who caused them: drafts whose user is the actor are
 * dropped) and queues their delivery in the same transaction. The drafts' dedupe keys name their
 * cause (an event id, a job key), so a second run of the same cause creates — and delivers — nothing.
 */
export async function notify(c: NotifyContext, drafts: NotificationDraft[]): Promise<NotificationRow[]> {
  const users = await existingUsers(
    c.db,
    drafts.map((d) => d.user_id),
  );
  const wanted = drafts.filter((d) => users.has(d.user_id) && d.user_id !== d.actor_id);
  const rows = await insertNotifications(c.db, wanted, c.now());
  if (rows.length > 0) await c.jobs.enqueue(DELIVER_JOB, { ids: rows.map((r) => String(r.id)) } satisfies DeliverPayload, { key: `deliver:${rows[0]!.id}`, db: c.db });
  return rows;
}

/** Which of these ids are users (a members value or a mention may name one that is gone). */
export async function existingUsers(db: Db, ids: number[]): Promise<Set<number>> {
  const unique = [...new Set(ids)].filter((id) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647);
  if (unique.length === 0) return new Set();
  const rows = await db.selectFrom('users').select('id').where('id', 'in', unique).execute();
  return new Set(rows.map((r) => r.id));
}

/** A user's name as notifications show who did something (null: nobody, or a user since removed). */
export async function userName(db: Db, userId: number | null): Promise<string | null> {
  if (userId === null) return null;
  const row = await db.selectFrom('users').select('name').where('id', '=', userId).executeTakeFirst();
  return row?.name ?? null;
}
