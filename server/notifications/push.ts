import webPush from 'web-push';
import { ApiError } from '../http/errors';
import { checkTargetForm, outboundFetch, OutboundFailed, TargetRefused, type AddressRule } from '../outbound';
import type { Db } from '../sync/store';
import type { Notification } from '../../schema/notifications';
import { notificationBody, notificationPath, notificationTitle } from './texts';
import type { VapidKeys } from './vapid';
import type { Translate } from '../i18n/catalogs';

/**
 * Web Push (RFC 8030/8291/8292): device tokens are the browser's PushSubscription as JSON. The
 * web-push library builds the encrypted, VAPID-signed request and the outbound client sends it
 * (decision 0355): a subscription's endpoint is an address a user chose, so the web push feature's
 * rule of server/outbound judges it, at save by its form (https, no inside address literal, no
 * local name) and at each send by what its name resolves to. The rule's operator settings are
 * WEB_PUSH_ALLOW_PRIVATE_TARGETS (or its older name PUSH_ALLOW_INSECURE_ENDPOINTS: also http, for
 * a local test push service) and WEB_PUSH_ALLOWED_HOSTS.
 */

export interface PushSubscriptionJson {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

const invalidToken = (why: string) => new ApiError(422, `Validation Error: token: ${why}`, 'validation', [`token: ${why}`]);

/** The subscription a token holds (its endpoint judged by the web push rule when given); a 422 naming what is wrong otherwise. */
export function parseDeviceToken(token: string, rule?: AddressRule): PushSubscriptionJson {
  let value: unknown;
  try {
    value = JSON.parse(token);
  } catch {
    throw invalidToken('must be a Web Push subscription (the JSON of a PushSubscription)');
  }
  const sub = value as Partial<PushSubscriptionJson> | null;
  const keys = sub?.keys;
  if (typeof sub?.endpoint !== 'string' || typeof keys?.p256dh !== 'string' || typeof keys?.auth !== 'string' || !keys.p256dh || !keys.auth) {
    throw invalidToken('must have an endpoint and keys.p256dh and keys.auth');
  }
  // The browser's keys: an uncompressed P-256 point (65 bytes) and a 16-byte auth secret.
  if (!isKey(keys.p256dh, 65) || Buffer.from(keys.p256dh, 'base64url')[0] !== 4 || !isKey(keys.auth, 16)) throw invalidToken('keys.p256dh and keys.auth must be the subscription’s base64url keys');
  if (rule) {
    try {
      checkTargetForm(sub.endpoint, rule);
    } catch (error) {
      if (!(error instanceof TargetRefused)) throw error;
      throw invalidToken('the endpoint must be an https address of a push service');
    }
  }
  return { endpoint: sub.endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } };
}

const isKey = (value: string, bytes: number) => /^[A-Za-z0-9_-]+={0,2}$/.test(value) && Buffer.from(value, 'base64url').length === bytes;

/** What the service worker receives: texts to show, where a click leads, and the notification itself. */
export function pushPayload(n: Notification, l10n?: Translate): string {
  return JSON.stringify({ title: notificationTitle(n, l10n), body: notificationBody(n), url: notificationPath(n), tag: `notification-${n.id}`, notification: n });
}

export type PushOutcome = 'sent' | 'gone' | 'failed';

/**
 * Sends one push. 'gone': the push service no longer knows the subscription (404/410), so the
 * caller removes it; 'failed': worth retrying (network, 429, 5xx).
 */
export async function sendPush(keys: VapidKeys, subscription: PushSubscriptionJson, payload: string, rule: AddressRule): Promise<{ outcome: PushOutcome; detail?: string }> {
  let request: ReturnType<typeof webPush.generateRequestDetails>;
  try {
    request = webPush.generateRequestDetails(subscription, payload, {
      vapidDetails: { subject: keys.subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
      TTL: 24 * 60 * 60,
      contentEncoding: 'aes128gcm',
    });
  } catch (error) {
    // Keys the library cannot encrypt to: no retry will change that.
    return { outcome: 'gone', detail: error instanceof Error ? error.message : String(error) };
  }
  // fetch sets Content-Length from the body itself (the library's figure is refused when it differs).
  const { 'Content-Length': _length, ...headers } = request.headers as Record<string, string>;
  try {
    // The endpoint is judged by the web push rule (https, the host resolved and checked, the socket
    // pinned to the checked address): a name that resolves inside is refused like any other target.
    const response = await outboundFetch(rule, request.endpoint, {
      method: request.method,
      headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)])),
      body: new Uint8Array(request.body as Buffer),
      timeoutMs: 10_000,
      maxBytes: 64 * 1024,
      overflow: 'truncate',
    });
    if (response.status >= 200 && response.status < 300) return { outcome: 'sent' };
    if (response.status === 404 || response.status === 410) return { outcome: 'gone', detail: `push service answered ${response.status}` };
    if (response.status === 400 || response.status === 403 || response.status === 413) return { outcome: 'gone', detail: `push service refused it (${response.status})` };
    return { outcome: 'failed', detail: `push service answered ${response.status}` };
  } catch (error) {
    // Refused by the rule: no retry will change that, the subscription is dropped.
    if (error instanceof TargetRefused) return { outcome: 'gone', detail: error.message };
    if (error instanceof OutboundFailed) return { outcome: 'failed', detail: error.message };
    // fetch names the real reason (refused, timed out, TLS) in `cause`.
    const cause = (error as { cause?: { message?: string; code?: string } })?.cause;
    const detail = error instanceof Error ? error.message : String(error);
    return { outcome: 'failed', detail: cause ? `${detail}: ${cause.message ?? cause.code}` : detail };
  }
}

/** Saves a device's subscription for this session (a device that changed hands moves to its new user). */
export async function saveDeviceToken(db: Db, userId: number, sessionId: number | null, token: string, now: Date, rule: AddressRule): Promise<void> {
  const sub = parseDeviceToken(token, rule);
  const stored = JSON.stringify(sub);
  await db
    .insertInto('push_subscriptions')
    .values({ user_id: userId, session_id: sessionId, token: stored, endpoint: sub.endpoint, created_at: now })
    .onConflict((oc) => oc.column('endpoint').doUpdateSet({ user_id: userId, session_id: sessionId, token: stored, created_at: now, last_error: null }))
    .execute();
}

/** Removes the user's own subscription with this token's endpoint (nothing when it is not theirs). */
export async function deleteDeviceToken(db: Db, userId: number, token: string): Promise<void> {
  const sub = parseDeviceToken(token);
  await db.deleteFrom('push_subscriptions').where('user_id', '=', userId).where('endpoint', '=', sub.endpoint).execute();
}

/** Signing out of a session removes the push subscriptions it registered (workspace.md §4). */
export async function deleteSessionDeviceTokens(db: Db, sessionId: number): Promise<void> {
  await db.deleteFrom('push_subscriptions').where('session_id', '=', sessionId).execute();
}
