import { connectSyncWorker, type SyncConnection, type TokenRecord } from '../../sync-worker/client';
import { changesWorkspaceList, teamEvents, type TeamEvent } from '../navigation/team-events';
import { workspaces } from './workspaces-cache';
import { followEngine } from '../connectivity/engine-bridge';
import { notSaved } from '../connectivity/not-saved';
import { pendingSync } from '../connectivity/pending-sync';
import { conflictInbox } from '../connectivity/conflicts';
import { toastServerReset, toastStorageFreed, toastStorageFull } from '../connectivity/messages';
import { currentToken, isSessionRefreshing, onTokenChange, refreshSession } from './client';
import { session } from './session';
import { isExpired, type AccessToken } from './token';
import { reportUpdate } from '../sw/updates';
import { signalFromHeaders, versionDiffers } from '../sw/update-rules';
import { CLIENT_VERSION } from '../../schema/constants';

/**
 * Signs the sync worker (DESIGN.md §1: one writer per browser) in and out with the shell's session.
 *
 * The shell stays the only refresher: it refreshes through the httpOnly cookie and shares each new
 * token between tabs (client.ts). A refresh rotates the session's tokens on the server, so a second
 * refresher (the worker) would kill the token every tab holds and the tabs' would kill the worker's.
 * The worker therefore gets the token record WITHOUT `refresh_expires_in`: its HttpClient then sees
 * an expired token as "expired", not "refresh", and ends its session (`session-expired`, queued work
 * kept) instead of POSTing /api/auth/refresh; the shell answers that event by refreshing and
 * signing the worker in again with the new token.
 */
let connection: SyncConnection | null = null;
let sentToken: string | null = null;
let sentUser: number | null = null;
/** Settles once the worker holds the session of `sentUser` (board backends wait for it). */
let signedIn: Promise<void> | null = null;
let lastExpiredRefresh = 0;
let lastResend = 0;

export function syncConnection(): SyncConnection {
  if (!connection) {
    connection = connectSyncWorker();
    const conn = connection;
    // The worker's connection state machine drives the online/syncing UX.
    followEngine(
      (listener) => {
        const off = conn.subscribe(listener);
        return () => void off.then((unsubscribe) => unsubscribe());
      },
      (reached) => void conn.api.reportServerReach(reached).catch(() => undefined),
    );
    void conn.subscribe((event, payload) => {
      if (event === 'session-expired') void onWorkerSessionExpired();
      // Refused edits changed (here or in another tab): the "Not saved" list asks again.
      else if (event === 'not-saved') {
        void notSaved.refresh();
        void conflictInbox.refresh();
      }
      // The conflicts table changed here or in another tab (issue #30 part 2): the inbox asks again.
      else if (event === 'conflicts') void conflictInbox.refresh();
      // The queue changed: the "waiting to sync" count follows (issue #30 part 5).
      else if (event === 'failed-requests') pendingSync.told((payload as { pending: number }).pending);
      else if (event === 'quota-exceeded') toastStorageFull();
      else if (event === 'storage-freed') toastStorageFreed();
      // The server answers from another database: the replica was loaded again (decision 0102).
      else if (event === 'server-reset') toastServerReset();
      // team.{id}.users / team.{id}.permissions (shell.md §7): screens of that workspace load again.
      else if (event === 'team') {
        const teamEvent = payload as TeamEvent;
        teamEvents.emit(teamEvent);
        if (changesWorkspaceList(teamEvent, session.get().user?.id ?? null)) void workspaces.refresh().catch(() => undefined);
      }
      // x-update-required / x-force-reload seen by the worker's HTTP client: the same rules as on the
      // shell's own calls (`force` → reload after 60–160 s, x-force-reload → at once; decision 0080).
      // The server's own push event with its version (S4.11): another version than this build prompts.
      else if (event === 'server-version') {
        if (versionDiffers(CLIENT_VERSION, (payload as { version?: unknown } | null)?.version)) reportUpdate({ source: 'push' });
      }
      else if (event === 'update-required') {
        const headers = (payload as { headers?: Record<string, string | null> } | null)?.headers ?? {};
        const signal = signalFromHeaders((name) => headers[name] ?? null);
        if (signal) reportUpdate(signal);
      }
    });
  }
  return connection;
}

/** What the worker may hold: the access token and its lifetime, never a way to refresh it. */
function workerToken(token: AccessToken): TokenRecord {
  return { access_token: token.access_token, expires_in: token.expires_in, created_at: token.created_at };
}

function update() {
  const state = session.get();
  const token = currentToken();
  if (state.status === 'signedIn' && token) {
    if (token.access_token === sentToken && state.user.id === sentUser) return;
    sentToken = token.access_token;
    sentUser = state.user.id;
    const conn = syncConnection();
    signedIn = conn.api.signIn(workerToken(token), state.user.id);
    signedIn.then(() => {
      notSaved.setSource(notSavedSource(conn));
      pendingSync.setSource({ list: () => conn.api.failedRequests() });
      conflictInbox.setSource(conflictSource(conn));
    }, () => undefined);
  } else if (state.status === 'signedOut' && sentUser !== null) {
    // Logout or an ended session: the worker forgets the token; unsynced work stays for next time.
    sentToken = null;
    sentUser = null;
    signedIn = null;
    notSaved.setSource(null);
    pendingSync.setSource(null);
    conflictInbox.setSource(null);
    void syncConnection().api.signOut().catch(() => undefined);
  }
}

function notSavedSource(conn: SyncConnection) {
  return {
    list: () => conn.api.notSaved(),
    retry: (collection: string, id: string) => conn.api.retryNotSaved(collection, id),
    discard: (collection: string, id: string) => conn.api.discardNotSaved(collection, id),
  };
}

function conflictSource(conn: SyncConnection) {
  return {
    list: () => conn.api.conflictInbox(),
    resolve: (seq: number, choice: 'mine' | 'theirs') => conn.api.resolveConflict(seq, choice),
    exportFile: () => conn.api.exportUnsynced(),
  };
}

/**
 * Sign-out with "Also remove this device's copy": the worker forgets the session and deletes
 * `userId`'s database (records, indexes, cursors, queue, drafts, conflicts, refused edits, meta).
 * Call before the shell's session is cleared; the plain sign-out that follows has nothing to do.
 */
export async function signOutRemovingDeviceCopy(userId: number): Promise<void> {
  sentToken = null;
  sentUser = null;
  signedIn = null;
  notSaved.setSource(null);
  await syncConnection().api.signOut({ removeDataOf: userId });
}

/** How many of this user's edits are not on the server yet (queued or refused), for the sign-out warning. */
export async function unsavedEditCount(): Promise<number> {
  const api = syncConnection().api;
  const [queued, refused] = await Promise.all([api.failedRequests().catch(() => []), api.notSaved().catch(() => [])]);
  return queued.length + refused.length;
}

async function onWorkerSessionExpired() {
  if (session.get().status !== 'signedIn') return;
  const token = currentToken();
  // Our token is still good: the worker's copy was an older one (say, resumed from its store after
  // a restart, then rotated away by our refresh). Hand it ours again, not a refresh of our own.
  if (token && !isExpired(token, Date.now()) && Date.now() - lastResend > 5_000) {
    lastResend = Date.now();
    sentToken = null;
    update();
    return;
  }
  // Ours is expired too (or was refused just now): refresh through the cookie once; the new token
  // reaches the worker through onTokenChange. Throttled so a refused token cannot loop.
  if (isSessionRefreshing() || Date.now() - lastExpiredRefresh < 5_000) return;
  lastExpiredRefresh = Date.now();
  sentToken = null;
  if (await refreshSession()) update();
}

/**
 * Offline start (session.ts): does the worker still hold `userId`'s session? It resumes the last
 * signed-in user from IndexedDB by itself, token included, so the boards can use it as it is; the
 * shell signs it in again with a fresh token once the server answers (update(), via onTokenChange).
 */
async function workerHolds(userId: number): Promise<boolean> {
  const held = await Promise.race([
    syncConnection().api.currentUser(),
    new Promise<null>((resolve) => setTimeout(() => resolve(null), 3_000)),
  ]).catch(() => null);
  if (held !== userId) return false;
  sentUser = userId;
  sentToken = null;
  signedIn = Promise.resolve();
  notSaved.setSource(notSavedSource(syncConnection()));
  pendingSync.setSource({ list: () => syncConnection().api.failedRequests() });
  conflictInbox.setSource(conflictSource(syncConnection()));
  return true;
}

/** The worker signed in as `userId` (rejects when the shell's session is not that user's). */
export async function workerSignedInAs(userId: number): Promise<SyncConnection> {
  update();
  if (sentUser !== userId || !signedIn) throw new Error('The sync worker is not signed in as this user.');
  await signedIn;
  return syncConnection();
}

let started = false;
/** Called once by the app on start: follows the session and every token change from then on. */
export function startWorkerSession() {
  if (started || typeof window === 'undefined') return;
  started = true;
  session.useWorkerCheck(workerHolds);
  session.subscribe(update);
  onTokenChange(update);
  update();
}
