import { connectivity } from './instance';
import { toastSyncing } from './messages';

/** The two engine events the shell follows (sync-worker/events.ts). */
type EngineListener = (event: string, payload: unknown) => void;

/**
 * Lets the sync engine drive the shell's connectivity: its `connection` events set online/offline
 * (so `useOnline()` and the greying follow the worker's state machine), and `syncing` shows the
 * 5 s "Syncing" toast. Pass the engine's subscribe (worker connection or tab backend); returns the
 * unsubscribe function.
 */
export function followEngine(subscribe: (listener: EngineListener) => () => void): () => void {
  return subscribe((event, payload) => {
    if (event === 'connection') {
      const status = (payload as { status?: string } | null)?.status;
      if (status === 'connected' || status === 'disconnected') connectivity.engineStatus(status);
    } else if (event === 'syncing') {
      toastSyncing();
    }
  });
}
