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

/**
 * The non-GET calls preview mode still lets the shell send (decision 0280): signing in and out and
 * unlocking a password-protected public board to read it. They change no user data, and without
 * them a preview tab of a signed-out visitor could show nothing.
 */
const SENT_IN_PREVIEW = [/^\/api\/auth\/(login|logout)$/, /^\/api\/boards\/[^/]+\/unlock$/];

export function sendsInPreview(method: string, path: string): boolean {
  if (method.toUpperCase() === 'GET') return true;
  const pathname = path.split('?')[0]!;
  return SENT_IN_PREVIEW.some((pattern) => pattern.test(pathname));
}

/** The address of this page without `pretend`: a full load there leaves preview mode (the badge's way out). */
export function previewExitHref(location: { pathname: string; search: string; hash: string }): string {
  const params = new URLSearchParams(location.search);
  params.delete('pretend');
  // Bare flags (`?hide_header`) stay bare.
  const query = params.toString().replace(/=(?=&|$)/g, '');
  return `${location.pathname}${query ? `?${query}` : ''}${location.hash}`;
}
