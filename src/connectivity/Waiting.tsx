import type { ReactNode } from 'react';
import { Trans } from '@lingui/react/macro';
import { useOnline } from './use-connectivity';

/**
 * What a screen that needs the server shows while its data has not come (issue #30 part 5):
 * "Loading…" online, and offline a plain sentence saying the page needs the server and will load
 * by itself, instead of "Loading…" for ever. Board edits still work offline, so it says that too.
 */
export function Waiting({ spinner }: { spinner?: ReactNode }) {
  const online = useOnline();
  if (!online) {
    return (
      <p role="status" className="needs-server" data-testid="needs-server">
        <Trans>This page needs a connection to the Cairn server. It will load by itself when you are back online. Your board changes are still saved on this device.</Trans>
      </p>
    );
  }
  return spinner ? (
    <>{spinner}</>
  ) : (
    <p role="status" aria-busy="true">
      <Trans>Loading…</Trans>
    </p>
  );
}
