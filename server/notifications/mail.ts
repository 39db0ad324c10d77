import type { AppContext } from '../context';
import type { JobQueue } from '../jobs/types';
import type { Db } from '../sync/store';
import { NOTIFICATION_TYPES, type NotificationType } from '../../schema/notifications';
import { loadSettings } from './settings';
import { toWire } from './store';
import { notificationBody, notificationPath, notificationTitle } from './texts';
import { translator } from '../i18n/catalogs';
import { judgeNames } from './judge-names';

/**
 * The batched notification mail: at most one per user per MAIL_WINDOW_MS, listing what happened
 * since the last one. A new notification (email on for its type) queues the user's mail job for
 * the end of the current window — one job per user and window (its key), so everything of the
 * window goes out together and two mails are a window apart. Notifications read in the app before
 * the mail goes out are left out of it.
 */

export const MAIL_JOB = 'notifications.mail';
export const MAIL_WINDOW_MS = 10 * 60 * 1000;
/** Lines in one mail; the rest are summed up ("and 12 more"). */
export const MAIL_MAX_LINES = 50;

export interface MailPayload {
  user_id: number;
}

/** Queues the user's mail for the end of the window `now` falls in (once per user and window). */
export async function queueMail(jobs: JobQueue, db: Db, userId: number, now: Date): Promise<void> {
  const window = Math.floor(now.getTime() / MAIL_WINDOW_MS);
  await jobs.enqueue(MAIL_JOB, { user_id: userId } satisfies MailPayload, { key: `mail:${userId}:${window}`, runAt: new Date((window + 1) * MAIL_WINDOW_MS), db });
}

/**
 * Sends what the user has not been mailed, has not read, and wants by mail. Runs in one
 * transaction: the rows are locked, the mail is sent, then marked — a failed send rolls the marks
 * back and the job retries (a crash between send and commit may repeat one mail; none is lost).
 */
export async function sendNotificationMail(ctx: AppContext, payload: MailPayload): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('users').select(['id', 'email', 'name', 'locale']).where('id', '=', payload.user_id).executeTakeFirst();
    if (!user) return;
    const settings = await loadSettings(trx, user.id);
    const types = NOTIFICATION_TYPES.filter((type) => settings[type].email);
    const now = ctx.now();
    if (types.length === 0) return;
    const rows = await trx
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', user.id)
      .where('emailed_at', 'is', null)
      .where('read_at', 'is', null)
      .where('created_at', '<=', now)
      .where('notification_type', 'in', types as NotificationType[])
      .orderBy('id')
      .forUpdate()
      .skipLocked()
      .execute();
    if (rows.length === 0) return;
    // Names of items the user can no longer read are left out (judged now, not when it was made).
    const list = await judgeNames(trx, user.id, rows.map(toWire));
    // In the recipient's language (decision 0155).
    const l10n = translator(user.locale);
    const base = ctx.config.publicUrl.replace(/\/+$/, '');
    const lines = list.slice(0, MAIL_MAX_LINES).map((n) => {
      const path = notificationPath(n);
      const body = notificationBody(n);
      return `- ${notificationTitle(n, l10n)}${body ? `\n  ${body}` : ''}${path ? `\n  ${base}${path}` : ''}`;
    });
    if (list.length > MAIL_MAX_LINES) lines.push(l10n('… and {count} more in the app.', { count: list.length - MAIL_MAX_LINES }));
    await ctx.mailer.send({
      to: user.email,
      subject: list.length === 1 ? notificationTitle(list[0]!, l10n) : l10n('{count, plural, one {# new notification in Cairn} other {# new notifications in Cairn}}', { count: list.length }),
      text: [
        l10n('Hello {name},', { name: user.name }),
        l10n('Here is what happened since we last wrote:'),
        lines.join('\n\n'),
        l10n('Choose which notifications you get by mail: {url}', { url: `${base}/profile/notifications` }),
      ].join('\n\n') + '\n',
    });
    await trx
      .updateTable('notifications')
      .set({ emailed_at: now })
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
  });
}
