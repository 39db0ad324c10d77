import { useSyncExternalStore } from 'react';
import { appVars } from './app-vars';

/** The server variables, re-rendering when a later GET /api/app-vars answers differently (billing on/off, decision 0260). */
export function useAppVars(): Record<string, unknown> {
  return useSyncExternalStore(appVars.subscribe, appVars.get, appVars.get);
}
