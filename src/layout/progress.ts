import { useSyncExternalStore } from 'react';

/** Whether the thin top progress bar is showing (named route changes in flight). */
let active = false;
const listeners = new Set<() => void>();
export const progress = {
  set(on: boolean) {
    if (active === on) return;
    active = on;
    listeners.forEach((l) => l());
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
};
export const useProgress = () => useSyncExternalStore(progress.subscribe, () => active, () => false);
