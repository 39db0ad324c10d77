import { Trans } from '@lingui/react/macro';
import { useOnline } from '../connectivity/use-connectivity';

/** A quiet line at the top of the content while offline. */
export function OfflineBanner() {
  const online = useOnline();
  if (online) return null;
  return (
    <div className="shell-offline-banner" role="status" data-testid="offline-banner">
      <Trans>You are offline. Changes to your account and workspaces are paused until the connection returns.</Trans>
    </div>
  );
}
