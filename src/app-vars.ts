import { AppVars } from './api/endpoints';
import { store, StorageKeys } from './storage/local-store';

/** Server variables (GET /api/app-vars), remembered locally so a reload offline still has them. */
let vars: Record<string, unknown> = store.get(StorageKeys.appVars, {});

let loading: Promise<Record<string, unknown>> | null = null;
const listeners = new Set<() => void>();

export const appVars = {
  get: () => vars,
  load() {
    loading = (async () => {
      try {
        vars = await AppVars.get();
        store.set(StorageKeys.appVars, vars);
        for (const listener of listeners) listener();
      } catch {
        /* keep the remembered copy */
      }
      return vars;
    })();
    return loading;
  },
  /** The answer of the load in progress (or the last one); the remembered copy when none started. */
  loaded: (): Promise<Record<string, unknown>> => loading ?? Promise.resolve(vars),
  /** Called after every load that answered (useAppVars re-renders with the new variables). */
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
