import { syncConnection } from '../../api/worker-session';
import { activityQuery, type ActivityFilter, type ActivityPage } from './activity-format';

/** An activity request the server refused, with its status (403: no VIEW_ACTIVITY_LOG). */
export class ActivityError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * One page of the activity log, newest first, straight from the server through the worker's
 * online call (the log is not replicated: it is read rarely and grows without end). Throws
 * offline; the screens show the offline note instead of calling.
 */
/** A page with the actors whose account the server does not find ("Deleted Account"). */
export type ActivityAnswer = ActivityPage & { deleted_user_ids: number[] };

export async function fetchActivity(teamId: number, filter: ActivityFilter, after: string | null, limit = 50): Promise<ActivityAnswer> {
  const answer = await syncConnection().api.request('get', `/api/${teamId}/activity?${activityQuery(filter, after, limit)}`);
  if (!answer.ok) {
    const body = answer.body as { message?: string } | null;
    throw new ActivityError(answer.status, body?.message ?? `HTTP ${answer.status}`);
  }
  const page = answer.body as Partial<ActivityAnswer>;
  return { data: page.data ?? [], after: page.after ?? null, has_more: Boolean(page.has_more), deleted_user_ids: page.deleted_user_ids ?? [] };
}
