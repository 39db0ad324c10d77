import { afterLogoutPath } from '../navigation/session';
import { store, StorageKeys } from '../storage/local-store';
import { Accounts } from './endpoints';
import { session } from './session';
import { workspaces } from './workspaces-cache';
import { signOutRemovingDeviceCopy } from './worker-session';
import { SW_CACHE_NAME } from '../../schema/constants';

/** Deletes what this device holds of the user: the worker's database and the cached photos. */
async function removeDeviceCopy(userId: number): Promise<void> {
  await signOutRemovingDeviceCopy(userId).catch(() => undefined);
  if (typeof caches !== 'undefined') await caches.delete(SW_CACHE_NAME).catch(() => false);
}

export interface LogoutOptions {
  /**
   * "Also remove this device's copy" (decision 0094): the sync worker deletes this user's
   * database (every synced record, index, cursor and unsynced edit) and the cached photos go too.
   * Without it the user's queued work stays on the device for their next sign-in.
   */
  removeDeviceCopy?: boolean;
}

/**
 * Logs out (shell.md §2): ask the server, then clear local storage whatever happened, and return
 * where to go: the server's redirect, /development with a saved owner token, else /login.
 */
export async function logout(options: LogoutOptions = {}): Promise<string> {
  const ownerTokenSaved = Boolean(store.get<string | null>(StorageKeys.ownerAccessToken, null));
  const state = session.get();
  const userId = state.status === 'signedIn' ? state.user.id : null;
  let ok = true;
  let serverRedirect: string | null = null;
  // While the session still holds: this device stops getting Web Push (bounded wait; decision 0113).
  if (userId !== null) await import('../notifications/push').then((push) => push.removePushOnLogout()).catch(() => undefined);
  try {
    const answer = await Accounts.logout();
    serverRedirect = answer?.redirect ?? null;
  } catch {
    ok = false;
  }
  if (options.removeDeviceCopy && userId !== null) await removeDeviceCopy(userId);
  store.clear();
  workspaces.clear();
  session.signedOut();
  return afterLogoutPath({ ok, serverRedirect, ownerTokenSaved });
}
