import { useEffect } from 'react';
import { connectivity } from '../connectivity/instance';
import { toastConnected } from '../connectivity/messages';

/** Shows "Connected" for 5 s whenever the app gets back online. */
export function ConnectivityWatcher() {
  useEffect(
    () =>
      connectivity.subscribe((state, previous) => {
        if (state.online && !previous.online) toastConnected();
      }),
    [],
  );
  return null;
}
