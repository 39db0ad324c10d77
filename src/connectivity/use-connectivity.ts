import { useSyncExternalStore } from 'react';
import { connectivity } from './instance';

/** True while the app can reach the server. */
export function useOnline(): boolean {
  return useSyncExternalStore(connectivity.subscribe, () => connectivity.get().online, () => true);
}
