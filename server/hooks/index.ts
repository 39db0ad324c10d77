/**
 * Webhooks (issue #14, decision 0140): what other modules may call. Everything else in
 * server/hooks/ is the module's own.
 *
 * For automations' "send to webhook URL" action (engineer "automations"): call
 *
 *   enqueueUrlDelivery(ctx, {
 *     url,                 // the target; checked against private addresses now and at connect time
 *     secret,              // optional: signs the body (X-Cairn-Signature: sha256=<hex HMAC-SHA256>)
 *     event,               // X-Cairn-Event and the body's `event`, e.g. 'automation.run'
 *     teamId, boardId,     // the body's team_id / board_id
 *     data,                // the body's `data` (JSON)
 *     key,                 // names this delivery for good (e.g. `${automationRunId}:${actionIndex}`):
 *                          // enqueuing the same key twice sends once (at-least-once callers)
 *   }, { db: trx })        // the consumer's / job's transaction: the delivery exists exactly when it commits
 *   → Promise<{ deliveryId: string }>   // X-Cairn-Delivery, the same on every retry
 *
 * It is sent like a hook's delivery: POST JSON `{id, event, team_id, board_id, data, created_at}`,
 * 10 s timeout, redirects not followed, retried after ~10 s, 1 min, 5 min, 30 min, 2 h, then
 * failed (no hook, so no hook log and no deactivation). Throws TargetRefused (422-worthy, its
 * message says why) when the URL is malformed or names a refused address.
 *
 * For a one-off synchronous attempt (a "test" button):
 *   deliverToUrl(target: { url, secret? }, body: DeliveryBody, opts: outboundRule(config, 'webhooks') & { timeoutMs? })
 *   → Promise<AttemptResult>  // {ok, status, duration_ms, error, response_body}; never throws
 */
export { enqueueUrlDelivery, type UrlDelivery } from './url-delivery';
export { deliverToUrl, type AttemptResult, type DeliveryBody } from './send';
export { TargetRefused, checkTargetUrl, type Resolver } from '../outbound';
