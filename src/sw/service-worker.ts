/// <reference lib="webworker" />
/**
 * The service worker (built to /sw.js by scripts/sw-build-plugin.ts, never imported by the app).
 * It keeps the app shell for offline starts; synced data stays with the sync worker and IndexedDB.
 *
 * - install: precache every file of this build (index.html, hashed assets, locale chunks, the
 *   sync worker) into `cairn-shell-{buildId}`. The first install takes over at once; a later one
 *   waits until the app asks it to (the user chose Reload), so a running tab never mixes builds.
 * - activate: delete the shell caches of other builds; `runtime-api-v1` (uploaded images) stays.
 * - fetch: see routing.ts.
 * - SW_CHANNEL: tells every tab the build id of the worker that just activated.
 * - notifications: see notifications.ts (show while no tab is visible, push, clicks).
 */
import { SW_CACHE_NAME, SW_CHANNEL } from '../../schema/constants';
import { INDEX_HTML, shellCacheName, staleShellCaches, type SwManifest } from './precache';
import { strategyFor } from './routing';
import { SW_MESSAGES } from './messages';
import { installNotificationHandlers } from './notifications';

declare const self: ServiceWorkerGlobalScope;
declare const __SW_MANIFEST__: SwManifest;

const manifest = __SW_MANIFEST__;
const shellCache = shellCacheName(manifest.buildId);
const precached = new Set(manifest.files);
/** A navigation that hangs (a half-dead network) falls back to the cached document after this. */
const NAVIGATION_TIMEOUT_MS = 5_000;
/** Uploaded images kept for offline use, oldest dropped first. */
const RUNTIME_FILE_LIMIT = 200;

// Desktop notifications, Web Push and their clicks (notifications.ts).
installNotificationHandlers(self);

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(shellCache);
      // `reload` skips the HTTP cache, so a precache never stores a stale copy of index.html.
      await cache.addAll(manifest.files.map((file) => new Request(file, { cache: 'reload' })));
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of staleShellCaches(await caches.keys(), manifest.buildId)) await caches.delete(name);
      await self.clients.claim();
      broadcast({ type: SW_MESSAGES.activated, buildId: manifest.buildId });
    })(),
  );
});

self.addEventListener('message', (event) => {
  const data = event.data as { type?: string } | null;
  if (data?.type === SW_MESSAGES.skipWaiting) void self.skipWaiting();
  else if (data?.type === SW_MESSAGES.buildId) event.source?.postMessage({ type: SW_MESSAGES.buildId, buildId: manifest.buildId });
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const strategy = strategyFor({ method: request.method, url: request.url, mode: request.mode, cache: request.cache }, self.location.origin, precached);
  if (strategy === 'shell-document') event.respondWith(shellDocument(request));
  else if (strategy === 'precached') event.respondWith(cacheFirst(shellCache, request));
  else if (strategy === 'runtime-file') event.respondWith(runtimeFile(request));
  // 'network': no respondWith, the browser fetches as if there were no service worker.
});

/** Network first; the cached index.html when the network fails or hangs. */
async function shellDocument(request: Request): Promise<Response> {
  const network = fetch(request);
  network.catch(() => undefined); // lost the race to the timeout: nobody awaits it any more
  const cached = await caches.open(shellCache).then((cache) => cache.match(INDEX_HTML));
  if (!cached) return network;
  try {
    return await Promise.race([network, timeout(NAVIGATION_TIMEOUT_MS)]);
  } catch {
    // Offline: the app starts from the cached shell and reads its data from IndexedDB.
    return cached;
  }
}

async function cacheFirst(cacheName: string, request: Request): Promise<Response> {
  const cache = await caches.open(cacheName);
  const hit = await cache.match(request, { ignoreSearch: true });
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

async function runtimeFile(request: Request): Promise<Response> {
  const response = await cacheFirst(SW_CACHE_NAME, request);
  void trim(SW_CACHE_NAME, RUNTIME_FILE_LIMIT);
  return response;
}

async function trim(cacheName: string, limit: number) {
  const cache = await caches.open(cacheName);
  const keys = await cache.keys();
  for (const key of keys.slice(0, Math.max(0, keys.length - limit))) await cache.delete(key);
}

function timeout(ms: number): Promise<never> {
  return new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), ms));
}

function broadcast(message: unknown) {
  try {
    const channel = new BroadcastChannel(SW_CHANNEL);
    channel.postMessage(message);
    channel.close();
  } catch {
    /* no BroadcastChannel: tabs still see controllerchange */
  }
}
