import { useEffect, useState } from 'react';
import type { BoardBackend } from './backend';
import { workerSignedInAs } from '../../api/worker-session';
import { createTabBackend } from './tab-backend';
import { createWorkerBackend } from './worker-backend';
import { withPendingWrites } from './pending';
import { previewMode } from '../../navigation/preview-instance';

/** One backend per signed-in user (or the anonymous visitor), shared by every board screen. */
const backends = new Map<string, Promise<BoardBackend>>();

export function backendFor(userId: number | null): Promise<BoardBackend> {
  // A preview (pretend) tab never writes through the shared worker: it runs its own engine over
  // its own database (preview-backend.ts, decision 0280), so the user's real tabs keep saving.
  const preview = previewMode.on;
  const key = (preview ? 'preview:' : '') + String(userId ?? 'guest');
  let found = backends.get(key);
  if (!found) {
    // Signed-in users go through the sync worker (one writer per browser; connectSyncWorker falls
    // back to a dedicated worker with a leader where SharedWorker is missing). Guests of public
    // boards have no worker session (the worker never holds anonymous sessions), so they keep
    // the engine in the tab, read-only as before.
    const inner = preview
      ? import('./preview-backend').then((m) => m.createPreviewBackend(userId))
      : userId === null
        ? createTabBackend(null)
        : workerSignedInAs(userId).then((connection) => createWorkerBackend(userId, connection));
    found = inner.then((backend) => withPendingWrites(backend));
    found.catch(() => backends.delete(key));
    backends.set(key, found);
  }
  return found;
}

export function useBackendFor(userId: number | null, enabled: boolean): { backend: BoardBackend | null; error: unknown } {
  const [state, setState] = useState<{ backend: BoardBackend | null; error: unknown }>({ backend: null, error: null });
  // Preview mode switched on by a later navigation (`?pretend`) swaps in the preview backend.
  const [preview, setPreview] = useState(previewMode.on);
  useEffect(() => previewMode.subscribe(setPreview), []);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    backendFor(userId).then(
      (backend) => live && setState({ backend, error: null }),
      (error) => live && setState({ backend: null, error }),
    );
    return () => {
      live = false;
    };
  }, [userId, enabled, preview]);
  return state;
}
