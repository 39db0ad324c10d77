import { useEffect } from 'react';
import { connectivity } from '../connectivity/instance';
import { toastConnected } from '../connectivity/messages';
import { toast } from '../ui/toast-store';

/**
 * Shows "Connected" for 5 s whenever the app gets back online, and takes it away the moment the app
 * is offline again (issue #30 part 5: one connectivity state, shown once; never "Connected"
 * beside the offline banner).
 */
export function ConnectivityWatcher() {
  useEffect(
    () =>
      connectivity.subscribe((state, previous) => {
        if (state.online && !previous.online) toastConnected();
        else if (!state.online) toast.dismiss('connectivity');
      }),
    [],
  );
  return null;
}
