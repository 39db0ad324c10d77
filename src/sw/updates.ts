/**
 * The app's one update controller (update-rules.ts) wired to the browser: real timers, the stored
 * flag, the prompt, and a reload that first hands over to a waiting service worker.
 */
import { CLIENT_VERSION } from '../../schema/constants';
import { store, StorageKeys } from '../storage/local-store';
import { onResponseHeaders } from '../api/client';
import { createUpdateController, signalFromHeaders, startVersionChecks, type StoredUpdate, type UpdateSignal, type UpdateTimers } from './update-rules';
import { showUpdatePrompt } from './prompt';
import { SW_MESSAGES } from './messages';

const timers: UpdateTimers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** When a waiting service worker does not take over in time, reload anyway. */
const HANDOVER_TIMEOUT_MS = 3_000;
let reloadOnHandover = false;

/** Reload into the new version: a waiting worker takes over first, so the reload gets its build. */
export async function reloadIntoUpdate() {
  const registration = await navigator.serviceWorker?.getRegistration().catch(() => undefined);
  if (registration?.waiting && navigator.serviceWorker.controller) {
    reloadOnHandover = true;
    registration.waiting.postMessage({ type: SW_MESSAGES.skipWaiting });
    setTimeout(() => window.location.reload(), HANDOVER_TIMEOUT_MS);
    return;
  }
  window.location.reload();
}

/** Only a handover we asked for reloads (the first install also changes the controller). */
export function handoverAsked(): boolean {
  return reloadOnHandover;
}

export const updates = createUpdateController({
  timers,
  random: Math.random,
  store: (flag) => store.set(StorageKeys.updateRequired, flag),
  prompt: (signal) => showUpdatePrompt(signal, () => void reloadIntoUpdate()),
  reload: () => void reloadIntoUpdate(),
});

export function reportUpdate(signal: UpdateSignal) {
  updates.signal(signal);
}

let started = false;
/**
 * On start: the stored flag is cleared (this load is the reload it asked for; a still-outdated app
 * is detected again), other tabs' flags prompt here too, and the version is compared every hour.
 */
export function startUpdateDetection() {
  if (started || typeof window === 'undefined') return;
  started = true;
  store.remove(StorageKeys.updateRequired);
  window.addEventListener('storage', (event) => {
    if (!event.key?.endsWith(StorageKeys.updateRequired) || !event.newValue) return;
    try {
      const flag = JSON.parse(event.newValue) as StoredUpdate;
      reportUpdate({ source: flag.source, force: flag.force });
    } catch {
      /* not ours */
    }
  });
  // x-update-required / x-force-reload on the shell's own calls (the worker reports its own).
  onResponseHeaders((headers) => {
    const signal = signalFromHeaders((name) => headers.get(name));
    if (signal) reportUpdate(signal);
  });
  startVersionChecks({
    clientVersion: CLIENT_VERSION,
    timers,
    fetchServerVersion: async () => {
      // no-store: a real answer from the server, never a cached copy.
      const response = await fetch('/api/app-vars', { cache: 'no-store', headers: { accept: 'application/json' } });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return ((await response.json()) as Record<string, unknown>)['app.version'];
    },
    onOutdated: () => reportUpdate({ source: 'version' }),
  });
}
