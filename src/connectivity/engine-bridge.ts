import { connectivity } from './instance';
import { toastSyncing } from './messages';
import { invalidateNotifications } from '../notifications/invalidation';

/** The two engine events the shell follows (sync-worker/events.ts). */
type EngineListener = (event: string, payload: unknown) => void;

/**
 * Lets the sync engine drive the shell's connectivity: its `connection` events set online/offline
 * (so `useOnline()` and the greying follow the worker's state machine), and `syncing` shows the
 * 5 s "Syncing" toast. Pass the engine's subscribe (worker connection or tab backend) and, for the
 * worker, where the tab's own evidence of reaching the server goes; returns the unsubscribe function.
 */
export function followEngine(subscribe: (listener: EngineListener) => () => void, reachedServer?: (reached: boolean) => void): () => void {
  // The worker's machine owns online/offline: what the tab sees itself is handed to it too.
  const detach = reachedServer ? connectivity.attachEngine({ reachedServer }) : () => undefined;
  const unsubscribe = subscribe((event, payload) => {
    if (event === 'connection') {
      const status = (payload as { status?: string } | null)?.status;
      if (status === 'connected' || status === 'disconnected') connectivity.engineStatus(status);
    } else if (event === 'syncing') {
      // Syncing shows its toast and invalidates notifications (shell.md §4, S4.5).
      toastSyncing();
      invalidateNotifications();
    }
  });
  return () => {
    detach();
    unsubscribe();
  };
}
