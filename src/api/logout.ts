import { afterLogoutPath } from '../navigation/session';
import { store, StorageKeys } from '../storage/local-store';
import { Accounts } from './endpoints';
import { session } from './session';
import { workspaces } from './workspaces-cache';

/**
 * Logs out (shell.md §2): ask the server, then clear local storage whatever happened, and return
 * where to go: the server's redirect, /development with a saved owner token, else /login.
 */
export async function logout(): Promise<string> {
  const ownerTokenSaved = Boolean(store.get<string | null>(StorageKeys.ownerAccessToken, null));
  let ok = true;
  let serverRedirect: string | null = null;
  try {
    const answer = await Accounts.logout();
    serverRedirect = answer?.redirect ?? null;
  } catch {
    ok = false;
  }
  store.clear();
  workspaces.clear();
  session.signedOut();
  return afterLogoutPath({ ok, serverRedirect, ownerTokenSaved });
}
