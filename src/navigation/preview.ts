/**
 * Preview ("pretend") mode: seeing `pretend` in the query switches it on once for the session;
 * navigating away from a pretend URL does not switch it off. While on, server requests are skipped
 * by the data layer and error messages are replaced (see src/connectivity/messages.ts).
 */
export interface PreviewMode {
  readonly on: boolean;
  /** Call with each route's query; returns true when this call switched preview mode on. */
  observe(search: Record<string, unknown>): boolean;
  subscribe(listener: (on: boolean) => void): () => void;
}

export function createPreviewMode(): PreviewMode {
  let on = false;
  const listeners = new Set<(on: boolean) => void>();
  return {
    get on() {
      return on;
    },
    observe(search) {
      if (on || search.pretend === undefined || search.pretend === null || search.pretend === 'false' || search.pretend === false) return false;
      on = true;
      for (const listener of listeners) listener(on);
      return true;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
