import { CLIENT_VERSION } from '../../schema/constants';

/**
 * The error reporter (shell.md §3, §8): uncaught errors and unhandled rejections of the app go to
 * the server as `PUT /api/log {name: 'client.error', properties}` (one structured log line there,
 * server/shell/routes.ts). "ResizeObserver loop limit exceeded" is ignored, as the spec says, and so
 * is Chromium's newer wording of the same harmless notice. The same message is sent once per
 * minute and at most MAX_REPORTS times per page load, so an error in a loop cannot flood the server.
 * Only the path is sent, never the query (it may carry tokens from mails).
 */
export const IGNORED_ERRORS = ['ResizeObserver loop limit exceeded', 'ResizeObserver loop completed with undelivered notifications'];
export const MAX_REPORTS = 10;
const SAME_MESSAGE_MS = 60_000;

export interface ErrorReport {
  message: string;
  stack?: string;
  source?: string;
  line?: number;
  column?: number;
}

export function isIgnored(message: string): boolean {
  return IGNORED_ERRORS.some((ignored) => message.includes(ignored));
}

/** Decides which reports go out (pure: the clock and the sender are given). */
export function createErrorReporter(send: (report: ErrorReport) => void, now: () => number = Date.now) {
  const lastSent = new Map<string, number>();
  let count = 0;
  return (report: ErrorReport): boolean => {
    const message = report.message || 'Unknown error';
    if (isIgnored(message) || count >= MAX_REPORTS) return false;
    const at = now();
    const before = lastSent.get(message);
    if (before !== undefined && at - before < SAME_MESSAGE_MS) return false;
    lastSent.set(message, at);
    count += 1;
    send({ ...report, message });
    return true;
  };
}

function describe(reason: unknown): ErrorReport {
  if (reason instanceof Error) return { message: `${reason.name}: ${reason.message}`, stack: reason.stack };
  return { message: typeof reason === 'string' ? reason : (() => { try { return JSON.stringify(reason) ?? String(reason); } catch { return String(reason); } })() };
}

let installed = false;

/** Listens for the window's uncaught errors from now on (once). */
export function installErrorReporter() {
  if (installed || typeof window === 'undefined') return;
  installed = true;
  const report = createErrorReporter((r) => {
    const body = JSON.stringify({ name: 'client.error', properties: { ...r, path: window.location.pathname, version: CLIENT_VERSION, userAgent: navigator.userAgent } });
    void fetch('/api/log', { method: 'PUT', headers: { 'Content-Type': 'application/json', 'X-Client-Version': CLIENT_VERSION }, body, keepalive: true, credentials: 'omit' }).catch(() => undefined);
  });
  window.addEventListener('error', (event) => {
    // A failed <script>/<img> load has no message: not an app error.
    if (!event.message && !event.error) return;
    const base = event.error ? describe(event.error) : { message: event.message };
    report({ ...base, message: event.message || base.message, source: event.filename || undefined, line: event.lineno || undefined, column: event.colno || undefined });
  });
  window.addEventListener('unhandledrejection', (event) => report(describe(event.reason)));
}
