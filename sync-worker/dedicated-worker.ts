/// <reference lib="webworker" />
/**
 * Dedicated-worker entry, for browsers without SharedWorker: one per tab, leader-elected through
 * a Web Lock (leader.ts). The tab sees the same Comlink API as with the SharedWorker.
 */
// First: no eval under the CSP (schema/zod-jitless.ts).
import '../schema/zod-jitless';
import * as Comlink from 'comlink';
import { nanoid } from 'nanoid';
import { createBrowserRuntime } from './browser-runtime';
import { systemClock } from './clock';
import { BUS_NAME, LeaderForwarder } from './leader';

declare const self: DedicatedWorkerGlobalScope;

const forwarder = new LeaderForwarder({
  locks: self.navigator.locks as unknown as ConstructorParameters<typeof LeaderForwarder>[0]['locks'],
  bus: new BroadcastChannel(BUS_NAME),
  createRuntime: () => createBrowserRuntime(self),
  newId: () => nanoid(),
  clock: systemClock,
});

// Tabs relay online/offline too; the leader is the one that acts on them.
self.addEventListener('online', () => void (forwarder as unknown as { reportOnline(o: boolean): Promise<void> }).reportOnline(true).catch(() => undefined));

Comlink.expose(forwarder, self);
