import { useEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page } from '../Page';
import { loadedHere } from './loaded-here';

/** The address this document was loaded at (the Navigation Timing entry). */
const navigationUrl = () => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.name;

/**
 * Routes the server answers with its own HTML page (decision 0210): the public form
 * (/form/{formId}) and published documents (/p/e…, /p/f…, /p/i…). The app reaches them only by
 * moving inside itself (a link, history): it then loads the address from the server, a full page
 * load. When this very document was already loaded at the address (the service worker's offline
 * copy of the app), loading it again would loop: the page says the address needs the connection.
 */
export default function ServerPage() {
  const { t } = useLingui();
  const [offline] = useState(() => loadedHere(window.location.href, navigationUrl()));
  useEffect(() => {
    if (!offline) window.location.reload();
  }, [offline]);
  return (
    <Page narrow title={offline ? t`This page needs the connection` : t`Opening the page…`}>
      <div className="empty-state" data-testid="server-page" data-offline={offline || undefined}>
        {offline && (
          <>
            <p>
              <Trans>Public forms and published documents come straight from the server. Check your connection and reload.</Trans>
            </p>
            <button type="button" className="ui-button ui-button--primary ui-button--md" onClick={() => window.location.reload()}>
              <Trans>Reload</Trans>
            </button>
          </>
        )}
      </div>
    </Page>
  );
}
