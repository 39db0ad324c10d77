import { useEffect, useSyncExternalStore } from 'react';
import { Workspaces, type Workspace } from './endpoints';
import { ApiRequestError, OFFLINE_STATUS } from './client';
import { session } from './session';
import { store } from '../storage/local-store';

/** The last list of each user, remembered so an offline start still shows the sidebar (0080). */
const REMEMBERED_KEY = 'workspaces';
const userId = () => session.get().user?.id ?? null;

/**
 * The signed-in user's workspaces (GET /api/me/workspaces), shared by the sidebar, home and the
 * white-label check. `refresh()` after creating, renaming or leaving one.
 */
let list: Workspace[] | null = null;
let loading: Promise<Workspace[]> | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export const workspaces = {
  get: () => list,
  async load(force = false): Promise<Workspace[]> {
    if (list && !force) return list;
    loading ??= Workspaces.mine()
      .then((result) => {
        list = result;
        store.set(REMEMBERED_KEY, { userId: userId(), list: result });
        emit();
        return result;
      })
      .catch((error: unknown) => {
        const remembered = store.get<{ userId: number | null; list: Workspace[] } | null>(REMEMBERED_KEY, null);
        // Offline: the signed-in user's last known list rather than an endless "Loading…".
        if (error instanceof ApiRequestError && error.status === OFFLINE_STATUS && remembered && remembered.userId !== null && remembered.userId === userId()) {
          list = remembered.list;
          emit();
          return remembered.list;
        }
        throw error;
      })
      .finally(() => {
        loading = null;
      });
    return loading;
  },
  refresh: () => workspaces.load(true),
  clear() {
    list = null;
    emit();
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
};

export function useWorkspaces(): { list: Workspace[] | null; error: boolean } {
  const value = useSyncExternalStore(workspaces.subscribe, workspaces.get, workspaces.get);
  useEffect(() => {
    if (!value) workspaces.load().catch(() => {});
  }, [value]);
  return { list: value, error: false };
}
