import { Trans } from '@lingui/react/macro';
import { useOnline } from '../connectivity/use-connectivity';
import { NotSavedIndicator } from './NotSaved';

/**
 * The connectivity indicator: a quiet line at the top of the content while offline, and the
 * "Not saved" line (edits the server refused, decision 0094) whenever there are any.
 */
export function OfflineBanner() {
  const online = useOnline();
  return (
    <>
      {online ? null : (
        <div className="shell-offline-banner" role="status" data-testid="offline-banner">
          <Trans>You are offline. Changes to your account and workspaces are paused until the connection returns.</Trans>
        </div>
      )}
      <NotSavedIndicator />
    </>
  );
}
