import { AppVars } from './api/endpoints';
import { store, StorageKeys } from './storage/local-store';

/** Server variables (GET /api/app-vars), remembered locally so a reload offline still has them. */
let vars: Record<string, unknown> = store.get(StorageKeys.appVars, {});

export const appVars = {
  get: () => vars,
  async load() {
    try {
      vars = await AppVars.get();
      store.set(StorageKeys.appVars, vars);
    } catch {
      /* keep the remembered copy */
    }
    return vars;
  },
};
