import { useEffect } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import { localTarget } from './redirect-target';
import { Page } from '../Page';

/**
 * redirect (/redirect?to=…): a hop that other pages (mails, the desktop app) send people through.
 * A local path opens at once; anything else (another site, a bad value) goes home instead, so the
 * hop can never be used to send someone to a stranger's site.
 */
export default function RedirectPage() {
  const navigate = useNavigate();
  const target = localTarget(new URLSearchParams(window.location.search));
  useEffect(() => {
    void navigate({ to: target ?? pathFor('home'), replace: true });
  }, [navigate, target]);
  return (
    <Page narrow>
      <p role="status">
        <Trans>Taking you there…</Trans> <Link to={target ?? pathFor('home')}><Trans>Continue</Trans></Link>
      </p>
    </Page>
  );
}
