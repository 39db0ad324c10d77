import { notifyBoardJob } from '../notifications/emit';
import type { NotifyContext } from '../notifications/notify';
import type { BoardJobRow } from './store';

/**
 * The notification of a job that ended, in the job's own transaction (decision 0160): done or
 * failed. A cancelled job tells nobody: its user cancelled it.
 */
export async function notifyBoardJobEnded(c: NotifyContext, job: BoardJobRow, summary: string): Promise<void> {
  if (job.state !== 'done' && job.state !== 'failed') return;
  const body = job.state === 'done' ? summary : (job.error ?? '');
  await notifyBoardJob(c, `board-job:${job.id}`, { teamId: job.team_id, boardId: job.board_id, userId: job.user_id, ok: job.state === 'done', body });
}
