import Pusher from 'pusher-js/worker';
import { createRealtime, type PusherConstructor, type Realtime, type RealtimeOptions } from './client';

/**
 * The realtime client with pusher-js's web-worker build (no window or document), for the
 * SharedWorker and the dedicated-worker fallback. Node tests use `createRealtime` with the Node build.
 */
export function createWorkerRealtime(opts: Omit<RealtimeOptions, 'Pusher'>): Realtime {
  return createRealtime({ ...opts, Pusher: Pusher as unknown as PusherConstructor });
}
