/**
 * Builds the runtime inside a real worker (SharedWorker or dedicated): the page's origin, the
 * browser's fetch, real time, and persistent storage requested so the browser does not evict
 * unsynced work under storage pressure.
 */
import { nanoid } from 'nanoid';
import { SyncRuntime } from './api';
import { systemClock } from './clock';
import { createWorkerRealtime } from './realtime/worker';
import { attachRealtime } from './worker-realtime';
import { attachConflictSync } from './conflict-sync';

export function createBrowserRuntime(scope: WorkerGlobalScope = self as unknown as WorkerGlobalScope): SyncRuntime {
  const runtime = new SyncRuntime({
    baseUrl: scope.location.origin,
    fetch: (input, init) => scope.fetch(input, init),
    clock: systemClock,
    random: Math.random,
    newId: () => nanoid(),
    swUuid: nanoid(),
    online: () => scope.navigator.onLine,
  });
  // Workers get the browser's connectivity events too.
  scope.addEventListener('online', () => void runtime.reportOnline(true));
  scope.addEventListener('offline', () => void runtime.reportOnline(false));
  void requestPersistence(scope.navigator);
  attachRealtime(runtime, createWorkerRealtime);
  // The user's conflicts kept in step with their other devices (decision 0346).
  attachConflictSync(runtime, () => nanoid());
  // The last signed-in user's session comes back without a new sign-in (calls wait for it).
  void runtime.resume().catch(() => false);
  return runtime;
}

/** navigator.storage.persist(): best effort (Chromium grants it to installed or engaged sites). */
export async function requestPersistence(nav: { storage?: { persisted?(): Promise<boolean>; persist?(): Promise<boolean> } }): Promise<boolean> {
  try {
    if (!nav.storage?.persist) return false;
    if (await nav.storage.persisted?.()) return true;
    return await nav.storage.persist();
  } catch {
    return false;
  }
}
