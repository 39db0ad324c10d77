import { useEffect, useState } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { pathFor } from '../../schema/routes';
import { Page } from '../screens/Page';
import { Spinner } from '../ui/Spinner';
import { setTrelloToken, takeTrelloReturn } from './import-api';

/**
 * /imports/trello/return-token (extract-trello-token): Trello's authorize page sends the member
 * back here with `#token=…` in the URL fragment (never sent to any server). The token is kept for
 * this tab only (session storage) and the user goes back to the Trello import they came from.
 */
export default function TrelloTokenPage() {
  const navigate = useNavigate();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const fragment = new URLSearchParams(window.location.hash.replace(/^#/, ''));
    const token = fragment.get('token');
    // The token leaves the address bar (and the history entry) at once.
    window.history.replaceState(null, '', window.location.pathname);
    if (!token || !/^[A-Za-z0-9]{16,256}$/.test(token)) {
      setFailed(true);
      return;
    }
    setTrelloToken(token);
    void navigate({ href: takeTrelloReturn() ?? pathFor('home'), replace: true });
  }, []); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <Page narrow>
      {failed ? (
        <>
          <p role="alert">
            <Trans>Trello did not accept the connection. Connect to Trello again.</Trans>
          </p>
          <Link to={takeTrelloReturn() ?? pathFor('home')}>
            <Trans>Back</Trans>
          </Link>
        </>
      ) : (
        <Spinner />
      )}
    </Page>
  );
}
