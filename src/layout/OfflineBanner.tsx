import { useEffect, useState } from 'react';
import { Trans } from '@lingui/react/macro';
import { useOnline } from '../connectivity/use-connectivity';
import { NotSavedIndicator } from './NotSaved';
import { PendingSyncIndicator } from './PendingSync';

/**
 * The connectivity indicator: a quiet line at the top of the content while offline (saying whether
 * the network is gone or only the server does not answer), and the "Not saved" line (edits the server refused, decision 0094) whenever there are any.
 */
/** navigator.onLine, followed live: whether the network itself is there (the words of the banner). */
function useNetworkUp(): boolean {
  const [up, setUp] = useState(() => navigator.onLine);
  useEffect(() => {
    const update = () => setUp(navigator.onLine);
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);
  return up;
}

export function OfflineBanner() {
  const online = useOnline();
  // Read live, not once: the server may stop answering first and the network go later (or back).
  const networkUp = useNetworkUp();
  return (
    <>
      {online ? null : (
        // One message, and the true one (issue #17 part 7): no network at all, or a network and no answer.
        <div className="shell-offline-banner" role="status" data-testid="offline-banner" data-reason={networkUp ? 'server' : 'network'}>
          <span>
            {networkUp ? (
              <Trans>Can't reach the Cairn server. Your board changes are kept on this device and sent when it answers.</Trans>
            ) : (
              <Trans>You're offline. Your board changes are saved on this device and will sync when you're back online.</Trans>
            )}
          </span>{' '}
          <PendingSyncIndicator />
        </div>
      )}
      <NotSavedIndicator />
    </>
  );
}
