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
