import { msg } from '@lingui/core/macro';
import { i18n } from '@lingui/core';
import { toast } from '../ui/toast-store';
import { TOAST_CONNECTED_MS, TOAST_OFFLINE_MS, TOAST_SYNCING_MS } from '../../schema/constants';

/** The connectivity toasts of shell.md §4 and §8, each replacing its previous copy. */
export function toastConnected() {
  toast.show(i18n._(msg`Connected`), { kind: 'connected', duration: TOAST_CONNECTED_MS, id: 'connectivity' });
}

export function toastSyncing() {
  toast.show(i18n._(msg`Syncing`), { kind: 'syncing', duration: TOAST_SYNCING_MS, id: 'syncing' });
}

export function toastOfflineAction() {
  toast.show(i18n._(msg`This action is not available when you are offline.`), { kind: 'offline', duration: TOAST_OFFLINE_MS, id: 'offline-action' });
}

/** The browser refused to store an edit (quota): it is kept and written as soon as space frees. */
export function toastStorageFull() {
  toast.show(i18n._(msg`This device is out of storage space. Your latest changes are kept in memory and will be saved as soon as space frees up; keep this tab open.`), {
    kind: 'error',
    duration: null,
    id: 'storage-full',
  });
}

export function toastStorageFreed() {
  toast.dismiss('storage-full');
  toast.show(i18n._(msg`Storage space is available again. Your held changes are stored.`), { kind: 'success', id: 'storage-freed' });
}

/**
 * The server came back on another database (reset, restored from a backup; decision 0102): the
 * worker dropped its copy and loads the boards again. Shown until dismissed, once per start-over.
 */
export function toastServerReset() {
  toast.show(i18n._(msg`The server's data was reset or restored from a backup, so your boards were loaded again. Edits it could not take are listed under Not saved.`), {
    kind: 'info',
    duration: null,
    id: 'server-reset',
  });
}
