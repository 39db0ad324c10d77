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
  timer: unknown;
  /** When the visible time ends (clock ms), while counting down. */
  deadline: number | null;
  /** Time left when paused. */
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
  const schedule = (entry: Entry, ms: number, fn: () => void) => {
    clock.clearTimeout(entry.timer);
    entry.timer = clock.setTimeout(fn, ms);
  };

  /** Runs the timeline from "appeared" for `visibleMs`, entering first if it is new. */
  const startCountdown = (entry: Entry, visibleMs: number | null) => {
    entry.remaining = null;
    if (visibleMs === null) {
      entry.deadline = null;
      if (entry.toast.phase === 'entering') schedule(entry, TOAST_ANIMATION_MS, () => settle(entry));
      else clock.clearTimeout(entry.timer);
      return;
    }
    entry.deadline = clock.now() + visibleMs;
    tick(entry);
  };
  // One timer per toast, always aimed at its next phase change.
  const tick = (entry: Entry) => {
    if (entry.deadline === null || entry.toast.paused) return;
    const now = clock.now();
    const left = entry.deadline - now;
    if (left <= 0) return leave(entry);
    if (entry.toast.phase === 'entering') {
      schedule(entry, Math.min(TOAST_ANIMATION_MS, left), () => {
        if (entry.toast.phase === 'entering' && clock.now() < (entry.deadline ?? Infinity)) {
          update(entry, { phase: 'visible' });
          emit();
        }
        tick(entry);
      });
      return;
    }
    schedule(entry, left, () => leave(entry));
  };
  const settle = (entry: Entry) => {
    if (entry.toast.phase !== 'entering') return;
    update(entry, { phase: 'visible' });
    emit();
  };
  const leave = (entry: Entry) => {
    if (!entries.has(entry.toast.id) || entry.toast.phase === 'leaving') return;
    entry.deadline = null;
    update(entry, { phase: 'leaving' });
    schedule(entry, TOAST_ANIMATION_MS, () => {
      if (entries.get(entry.toast.id) === entry) {
        entries.delete(entry.toast.id);
        emit();
      }
    });
    emit();
  };

  return {
    show(message, opts = {}) {
      const kind = opts.kind ?? 'default';
      const duration = toastDuration(kind, opts.duration, testMode);
      const existing = opts.id ? entries.get(opts.id) : undefined;
      if (existing && existing.toast.phase !== 'leaving') {
        update(existing, { message, kind, duration, action: opts.action, paused: false });
        startCountdown(existing, duration);
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
        timer: undefined,
        deadline: null,
        remaining: null,
      };
      entries.set(id, entry);
      startCountdown(entry, duration);
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
      update(entry, { paused: true, phase: 'visible' });
      emit();
    },
    resume(id) {
      const entry = entries.get(id);
      if (!entry || !entry.toast.paused) return;
      update(entry, { paused: false });
      const remaining = entry.remaining;
      entry.remaining = null;
      if (remaining !== null) {
        entry.deadline = clock.now() + remaining;
        tick(entry);
      }
      emit();
    },
    clear() {
      for (const entry of entries.values()) clock.clearTimeout(entry.timer);
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
