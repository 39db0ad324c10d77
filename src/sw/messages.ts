/** Messages between the app and its service worker (postMessage and the SW_CHANNEL broadcast). */
export const SW_MESSAGES = {
  /** app → waiting worker: take over now (the user chose Reload). */
  skipWaiting: 'skip-waiting',
  /** app → worker, and the answer: which build this worker serves. */
  buildId: 'build-id',
  /** worker → every tab over SW_CHANNEL: a worker of this build just took over. */
  activated: 'activated',
  /** app → worker: show this notification unless a tab of the app is visible (src/sw/notifications.ts). */
  showNotification: 'show-notification',
} as const;
