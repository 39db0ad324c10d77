/**
 * Toast timing as a pure store with an injected clock (shell.md §4 and §9):
 * a toast enters (300 ms), stays for its duration counted from when it appeared, leaves (300 ms)
 * and is removed. Durations come from schema/constants.ts per kind and are scaled by 0.2 in test
 * mode. Hover or focus pauses the countdown so nobody loses a message they are reading.
 */
import {
  TOAST_ANIMATION_MS,
  TOAST_CONNECTED_MS,
  TOAST_DEFAULT_MS,
  TOAST_DESKTOP_UPDATE_MS,
  TOAST_ERROR_MS,
  TOAST_OFFLINE_MS,
  TOAST_SYNCING_MS,
  TOAST_TEST_MODE_SCALE,
} from '../../schema/constants';

export type ToastKind = 'default' | 'success' | 'info' | 'error' | 'connected' | 'syncing' | 'offline' | 'desktopUpdate';
export type ToastPhase = 'entering' | 'visible' | 'leaving';

export interface ToastAction {
  label: string;
  run: () => void;
}

export interface ToastOptions {
  kind?: ToastKind;
  /** Milliseconds on screen before test-mode scaling; `null` keeps it until dismissed. */
  duration?: number | null;
  /** Showing again with the same id replaces that toast instead of stacking a new one. */
  id?: string;
  action?: ToastAction;
}

export interface Toast {
  id: string;
  message: string;
  kind: ToastKind;
  phase: ToastPhase;
  /** Effective time on screen in ms (already scaled), or null when it stays until dismissed. */
  duration: number | null;
  action?: ToastAction;
  paused: boolean;
}

export interface ToastClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const KIND_DURATION_MS: Record<ToastKind, number> = {
  default: TOAST_DEFAULT_MS,
  success: TOAST_DEFAULT_MS,
  info: TOAST_DEFAULT_MS,
  error: TOAST_ERROR_MS,
  connected: TOAST_CONNECTED_MS,
  syncing: TOAST_SYNCING_MS,
  offline: TOAST_OFFLINE_MS,
  desktopUpdate: TOAST_DESKTOP_UPDATE_MS,
};

/** Most toasts on screen at once; showing more dismisses the oldest. */
export const MAX_TOASTS = 5;

/** Effective duration of a toast: explicit or per kind, scaled by 0.2 in test mode. */
export function toastDuration(kind: ToastKind, duration: number | null | undefined, testMode: boolean): number | null {
  if (duration === null) return null;
  const base = duration ?? KIND_DURATION_MS[kind];
  return Math.round(testMode ? base * TOAST_TEST_MODE_SCALE : base);
}

/** True when the page URL asks for test mode (`?test_mode=1` or `?test_mode=true`). */
export function testModeFromSearch(search: string): boolean {
  const value = new URLSearchParams(search).get('test_mode');
  return value === '1' || value === 'true';
}

export interface ToastStore {
  show(message: string, options?: ToastOptions): string;
  dismiss(id: string): void;
  pause(id: string): void;
  resume(id: string): void;
  clear(): void;
  /** Immutable snapshot; a new array after every change (fit for useSyncExternalStore). */
  getToasts(): readonly Toast[];
  subscribe(listener: () => void): () => void;
  setTestMode(on: boolean): void;
  isTestMode(): boolean;
}

interface Entry {
  toast: Toast;
  /** Ends the 300 ms enter animation. */
  enterTimer: unknown;
  /** Aimed at the next step: leaving (while counting down) or removal (while leaving). */
  timer: unknown;
  /** When the visible time ends (clock ms), while counting down. */
  deadline: number | null;
  /** Time left, while paused. */
  remaining: number | null;
}

export function createToastStore(clock: ToastClock, options: { testMode?: boolean } = {}): ToastStore {
  let testMode = options.testMode ?? false;
  let counter = 0;
  const entries = new Map<string, Entry>();
  const listeners = new Set<() => void>();
  let snapshot: readonly Toast[] = [];

  const emit = () => {
    snapshot = [...entries.values()].map((entry) => entry.toast);
    for (const listener of listeners) listener();
  };
  const update = (entry: Entry, patch: Partial<Toast>) => {
    entry.toast = { ...entry.toast, ...patch };
  };

  /** Counts `ms` of visible time from now (`null`: stays until dismissed). */
  const countDown = (entry: Entry, ms: number | null) => {
    clock.clearTimeout(entry.timer);
    entry.remaining = null;
    entry.deadline = ms === null ? null : clock.now() + ms;
    entry.timer = ms === null ? undefined : clock.setTimeout(() => leave(entry), ms);
  };
  const leave = (entry: Entry) => {
    if (entries.get(entry.toast.id) !== entry || entry.toast.phase === 'leaving') return;
    clock.clearTimeout(entry.enterTimer);
    clock.clearTimeout(entry.timer);
    entry.deadline = null;
    update(entry, { phase: 'leaving' });
    entry.timer = clock.setTimeout(() => {
      if (entries.get(entry.toast.id) !== entry) return;
      entries.delete(entry.toast.id);
      emit();
    }, TOAST_ANIMATION_MS);
    emit();
  };

  return {
    show(message, opts = {}) {
      const kind = opts.kind ?? 'default';
      const duration = toastDuration(kind, opts.duration, testMode);
      const existing = opts.id ? entries.get(opts.id) : undefined;
      if (existing && existing.toast.phase !== 'leaving') {
        update(existing, { message, kind, duration, action: opts.action, paused: false });
        countDown(existing, duration);
        emit();
        return existing.toast.id;
      }
      if (existing) {
        clock.clearTimeout(existing.timer);
        entries.delete(existing.toast.id);
      }
      const id = opts.id ?? `toast-${++counter}`;
      const entry: Entry = {
        toast: { id, message, kind, phase: 'entering', duration, action: opts.action, paused: false },
        enterTimer: undefined,
        timer: undefined,
        deadline: null,
        remaining: null,
      };
      entries.set(id, entry);
      entry.enterTimer = clock.setTimeout(() => {
        if (entry.toast.phase !== 'entering') return;
        update(entry, { phase: 'visible' });
        emit();
      }, TOAST_ANIMATION_MS);
      countDown(entry, duration);
      // Too many on screen: the oldest goes first.
      const live = [...entries.values()].filter((e) => e.toast.phase !== 'leaving');
      for (const old of live.slice(0, Math.max(0, live.length - MAX_TOASTS))) leave(old);
      emit();
      return id;
    },
    dismiss(id) {
      const entry = entries.get(id);
      if (entry) leave(entry);
    },
    pause(id) {
      const entry = entries.get(id);
      if (!entry || entry.toast.paused || entry.toast.phase === 'leaving') return;
      entry.remaining = entry.deadline === null ? null : Math.max(0, entry.deadline - clock.now());
      entry.deadline = null;
      clock.clearTimeout(entry.timer);
      update(entry, { paused: true });
      emit();
    },
    resume(id) {
      const entry = entries.get(id);
      if (!entry || !entry.toast.paused) return;
      update(entry, { paused: false });
      if (entry.remaining !== null) countDown(entry, entry.remaining);
      emit();
    },
    clear() {
      for (const entry of entries.values()) {
        clock.clearTimeout(entry.enterTimer);
        clock.clearTimeout(entry.timer);
      }
      entries.clear();
      emit();
    },
    getToasts: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setTestMode(on) {
      testMode = on;
    },
    isTestMode: () => testMode,
  };
}

export const realClock: ToastClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** The app's toast store: `toast.show(message, {kind, duration})`. */
export const toast = createToastStore(realClock);

/** Called by the app when app-vars or `?test_mode=1` says the app runs under test. */
export function setToastTestMode(on: boolean): void {
  toast.setTestMode(on);
}
