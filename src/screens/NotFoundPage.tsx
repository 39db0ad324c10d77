import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { pathFor } from '../../schema/routes';
import { Page } from './Page';

export function NotFoundPage() {
  const { t } = useLingui();
  return (
    <Page title={t`Page not found`} narrow>
      <div className="empty-state" data-testid="not-found">
        <p>
          <Trans>The page you are looking for does not exist or was moved.</Trans>
        </p>
        <Link to={pathFor('home')} className="ui-button ui-button--primary ui-button--md">
          <Trans>Go to home</Trans>
        </Link>
      </div>
    </Page>
  );
}
