import { createContext, useCallback, useContext, useSyncExternalStore } from 'react';
import { browserQueryFlags, type QueryFlagAdapter } from './query-flag';

/**
 * Lets the app swap the URL adapter (e.g. one built on the router's own history). Without a
 * provider the window.history adapter is used.
 */
export const QueryFlagContext = createContext<QueryFlagAdapter | null>(null);

/** `[isOn, setOn]` for `?{key}=on`. */
export function useQueryFlag(key: string): [boolean, (on: boolean) => Promise<void>] {
  const adapter = useContext(QueryFlagContext) ?? browserQueryFlags();
  const on = useSyncExternalStore(
    adapter.subscribe,
    () => adapter.read(key),
    () => false,
  );
  const setOn = useCallback((value: boolean) => adapter.set(key, value), [adapter, key]);
  return [on, setOn];
}
