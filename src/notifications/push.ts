import { Messages } from '../../schema/messages';
import { NotificationsApi } from './api';

/**
 * Web Push (issue #11 part 6; decision 0113): with the user's consent the browser's push
 * subscription for the server's VAPID key is registered as a device token
 * (`POST /api/notifications/device-tokens`, token = the PushSubscription JSON), so notifications
 * reach this device with no tab open (src/sw/notifications.ts shows them). Never for guests (the
 * settings screen is not theirs); removed on logout (src/api/logout.ts).
 */
export type PushState = 'on' | 'off' | 'denied' | 'unsupported';

/** How long logout waits for the push service before it goes on regardless. */
const LOGOUT_WAIT_MS = 3_000;
const READY_WAIT_MS = 5_000;

export function pushSupported(): boolean {
  return typeof navigator !== 'undefined' && 'serviceWorker' in navigator && typeof window !== 'undefined' && 'PushManager' in window && typeof Notification !== 'undefined';
}

async function registration(): Promise<ServiceWorkerRegistration | null> {
  if (!pushSupported()) return null;
  // No service worker registers in development builds: do not wait for one forever.
  if (!navigator.serviceWorker.controller && !(await navigator.serviceWorker.getRegistration())) return null;
  return Promise.race([navigator.serviceWorker.ready, new Promise<null>((resolve) => setTimeout(() => resolve(null), READY_WAIT_MS))]);
}

export async function pushState(): Promise<PushState> {
  const reg = await registration().catch(() => null);
  if (!reg) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  const sub = await reg.pushManager.getSubscription().catch(() => null);
  return sub && Notification.permission === 'granted' ? 'on' : 'off';
}

/**
 * Permission refused or the prompt dismissed: the spec's error (shell.md §8, workspace.md §8:
 * "denied permission raises 'User denied permissions!'"); the message is the catalogue text, so
 * translateMessage shows it in the user's language.
 */
export class PushDeniedError extends Error {
  constructor() {
    super(Messages.pushDenied);
    this.name = 'PushDeniedError';
  }
}

/**
 * Asks for permission, subscribes with the server's key and registers the device. Throws
 * PushDeniedError when permission is not granted (the spec: "If not granted an error is thrown").
 */
export async function enablePush(): Promise<PushState> {
  const reg = await registration();
  if (!reg) return 'unsupported';
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new PushDeniedError();
  const key = urlBase64ToBytes(await NotificationsApi.vapidPublicKey());
  let sub = await reg.pushManager.getSubscription();
  if (sub && !sameKey(sub.options.applicationServerKey, key)) {
    // The server's keys changed (a new DATA_DIR): the old subscription can never be sent to.
    await sub.unsubscribe().catch(() => false);
    sub = null;
  }
  sub ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  await NotificationsApi.addDeviceToken(JSON.stringify(sub));
  return 'on';
}

/** Unregisters this device and ends the browser's subscription. */
export async function disablePush(): Promise<PushState> {
  const reg = await registration();
  if (!reg) return 'unsupported';
  await disableWith(reg);
  return 'off';
}

/** On logout, while the session still holds: no push for this device after it (bounded wait). */
export function removePushOnLogout(): Promise<void> {
  const work = (async () => {
    if (!pushSupported()) return;
    const reg = await navigator.serviceWorker.getRegistration();
    if (reg) await disableWith(reg);
  })().catch(() => undefined);
  return Promise.race([work, new Promise<void>((resolve) => setTimeout(resolve, LOGOUT_WAIT_MS))]);
}

async function disableWith(reg: ServiceWorkerRegistration) {
  const sub = await reg.pushManager.getSubscription();
  if (!sub) return;
  await NotificationsApi.removeDeviceToken(JSON.stringify(sub)).catch(() => undefined);
  await sub.unsubscribe().catch(() => false);
}

function sameKey(a: ArrayBuffer | null, b: Uint8Array): boolean {
  if (!a) return false;
  const bytes = new Uint8Array(a);
  return bytes.length === b.length && bytes.every((x, i) => x === b[i]);
}

/** The VAPID public key comes base64url-encoded; PushManager wants its bytes. */
export function urlBase64ToBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = (text + '='.repeat((4 - (text.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}
