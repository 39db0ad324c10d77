import { useEffect, useSyncExternalStore } from 'react';
import { Workspaces, type Workspace } from './endpoints';

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
        emit();
        return result;
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
