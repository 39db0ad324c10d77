import { useEffect, useState } from 'react';
import type { BoardBackend } from './backend';
import { workerSignedInAs } from '../../api/worker-session';
import { createTabBackend } from './tab-backend';
import { createWorkerBackend } from './worker-backend';
import { withPendingWrites } from './pending';
import { previewMode } from '../../navigation/preview-instance';

/** One backend per signed-in user (or the anonymous visitor), shared by every board screen. */
const backends = new Map<string, Promise<BoardBackend>>();
const forget = (key: string, backend: Promise<BoardBackend>) => {
  if (backends.get(key) === backend) backends.delete(key);
};

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
        : signedInBackend(userId, () => forget(key, made));
    const made: Promise<BoardBackend> = inner.then((backend) => withPendingWrites(backend));
    found = made;
    found.catch(() => forget(key, made));
    backends.set(key, found);
  }
  return found;
}

/**
 * A signed-in user's backend over the worker, made without waiting for the worker's sign-in: the
 * replica is read meanwhile, commands wait for it (decision 0366). A sign-in refused before the
 * replica is open fails the backend as before; one refused later leaves its commands rejecting
 * and `drop` forgets it, so the next screen makes a new one.
 */
async function signedInBackend(userId: number, drop: () => void): Promise<BoardBackend> {
  const connection = workerSignedInAs(userId);
  let refused: { error: unknown } | null = null;
  connection.catch((error: unknown) => {
    refused = { error };
    drop();
  });
  const backend = await createWorkerBackend(userId, connection);
  if (refused) throw (refused as { error: unknown }).error;
  return backend;
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
