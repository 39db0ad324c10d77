import { enqueueUrlDelivery } from '../hooks';
import type { ActionRun } from './actions';

/**
 * The "send to webhook URL" action: a delivery of the webhooks module (server/hooks, decision
 * 0140) enqueued in the run's transaction, so it exists exactly when the run commits and is sent,
 * retried and logged like a hook's delivery. The key names the run and the action: sent once.
 * A refused address (TargetRefused: private network, bad URL) fails the run with its reason.
 */
export async function sendToWebhook(run: ActionRun, url: string, key: string): Promise<void> {
  const item = run.item.data;
  await enqueueUrlDelivery(
    run.ctx,
    {
      url,
      event: 'automation.run',
      teamId: run.scope.team.id,
      boardId: run.automation.board_id,
      data: { automation: { id: run.automation.id, name: run.automation.name }, item: { id: run.item.id, name: item.name ?? '', folder_id: item.folder_id ?? null } },
      key: `automation:${key}`,
    },
    { db: run.scope.trx },
  );
}
