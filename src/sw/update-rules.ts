/**
 * Version updates (shell.md §4), as pure rules with an injected clock and random source:
 * a new version is seen through the service worker (a waiting worker), the app-version comparison
 * (GET /api/app-vars `app.version`, on start and every hour), a response header, or a push event.
 * Once seen: the update-required flag is stored and the user is prompted to reload; with the force
 * flag the page reloads by itself after a random 60–160 s, at once with x-force-reload.
 */
import { FORCED_RELOAD_MAX_MS, FORCED_RELOAD_MIN_MS, VERSION_CHECK_INTERVAL_MS } from '../../schema/constants';

export type UpdateSource = 'service-worker' | 'version' | 'header' | 'push';

export interface UpdateSignal {
  source: UpdateSource;
  /** Reload by itself after a random 60–160 s (the user may reload sooner). */
  force?: boolean;
  /** Reload at once (x-force-reload). */
  now?: boolean;
}

/** What is stored under StorageKeys.updateRequired (other tabs read it through `storage`). */
export interface StoredUpdate {
  source: UpdateSource;
  force: boolean;
  at: number;
}

export interface UpdateTimers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface UpdateEffects {
  timers: UpdateTimers;
  /** In [0, 1). */
  random: () => number;
  store(flag: StoredUpdate): void;
  prompt(signal: UpdateSignal): void;
  reload(): void;
}

/** The delay of a forced reload: uniform in [60 s, 160 s]. */
export function forcedReloadDelay(random: () => number): number {
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.round(FORCED_RELOAD_MIN_MS + r * (FORCED_RELOAD_MAX_MS - FORCED_RELOAD_MIN_MS));
}

/**
 * Reads x-update-required / x-force-reload. `x-update-required: force` asks for the forced reload;
 * any other non-empty value than 0/false for the prompt; x-force-reload for a reload at once.
 */
export function signalFromHeaders(get: (name: string) => string | null): UpdateSignal | null {
  const on = (value: string | null) => value !== null && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
  const required = get('x-update-required');
  const forceReload = get('x-force-reload');
  if (on(forceReload)) return { source: 'header', force: true, now: true };
  if (on(required)) return { source: 'header', force: required!.toLowerCase() === 'force' };
  return null;
}

/** The server runs another version than this app was built for (any difference: a rollback too). */
export function versionDiffers(clientVersion: string, serverVersion: unknown): boolean {
  return typeof serverVersion === 'string' && serverVersion.trim() !== '' && serverVersion.trim() !== clientVersion.trim();
}

export interface UpdateController {
  signal(signal: UpdateSignal): void;
  /** The signal being acted on, if any. */
  current(): UpdateSignal | null;
  stop(): void;
}

/** Acts on signals: first one prompts, a force schedules one reload, `now` reloads at once. */
export function createUpdateController(effects: UpdateEffects): UpdateController {
  let current: UpdateSignal | null = null;
  let forcedTimer: unknown = null;
  let reloaded = false;
  const reload = () => {
    if (reloaded) return;
    reloaded = true;
    if (forcedTimer !== null) effects.timers.clearTimeout(forcedTimer);
    effects.reload();
  };
  return {
    signal(signal) {
      if (reloaded) return;
      const force = !!signal.force || !!signal.now;
      const first = current === null;
      if (first || (force && !current!.force)) {
        current = { ...signal, force };
        effects.store({ source: signal.source, force, at: effects.timers.now() });
      }
      if (signal.now) return reload();
      if (first) effects.prompt(current!);
      if (force && forcedTimer === null) forcedTimer = effects.timers.setTimeout(reload, forcedReloadDelay(effects.random));
    },
    current: () => current,
    stop() {
      if (forcedTimer !== null) effects.timers.clearTimeout(forcedTimer);
      forcedTimer = null;
    },
  };
}

/**
 * Compares the server's version with ours now and then every hour; stops after the first
 * difference (one prompt is enough). Failed checks (offline) just wait for the next turn.
 */
export function startVersionChecks(opts: {
  clientVersion: string;
  fetchServerVersion: () => Promise<unknown>;
  onOutdated: () => void;
  timers: UpdateTimers;
  intervalMs?: number;
}): () => void {
  let handle: unknown = null;
  let stopped = false;
  const check = async () => {
    handle = null;
    let outdated = false;
    try {
      outdated = versionDiffers(opts.clientVersion, await opts.fetchServerVersion());
    } catch {
      /* offline or failed: try again next turn */
    }
    if (stopped) return;
    if (outdated) return opts.onOutdated();
    handle = opts.timers.setTimeout(() => void check(), opts.intervalMs ?? VERSION_CHECK_INTERVAL_MS);
  };
  void check();
  return () => {
    stopped = true;
    if (handle !== null) opts.timers.clearTimeout(handle);
  };
}

/** A service worker update check at most once per window (shell.md §9: 60 s), however often asked. */
export function throttle(windowMs: number, now: () => number, run: () => void): () => boolean {
  let last = -Infinity;
  return () => {
    if (now() - last < windowMs) return false;
    last = now();
    run();
    return true;
  };
}
