/// <reference lib="webworker" />
/**
 * SharedWorker entry ("sync", one per origin): one runtime serves every tab; each tab's port
 * gets the Comlink surface of api.ts.
 */
// First: no eval under the CSP (schema/zod-jitless.ts).
import '../schema/zod-jitless';
import * as Comlink from 'comlink';
import { createBrowserRuntime } from './browser-runtime';

declare const self: SharedWorkerGlobalScope;

const runtime = createBrowserRuntime(self);

self.addEventListener('connect', (event) => {
  const port = (event as MessageEvent).ports[0]!;
  Comlink.expose(runtime, port);
  port.start();
});
