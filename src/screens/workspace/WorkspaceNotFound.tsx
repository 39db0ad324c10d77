import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import { Page } from '../Page';

/** A /team/{id} page whose workspace does not exist or is not the user's: a not-found page, never a placeholder. */
export function WorkspaceNotFound() {
  const { t } = useLingui();
  return (
    <Page title={t`Workspace not found`} narrow>
      <div className="empty-state" data-testid="not-found">
        <p>
          <Trans>This workspace does not exist, or you are not one of its members. Ask its owner for an invitation if you should be.</Trans>
        </p>
        <Link to={pathFor('home')} className="ui-button ui-button--primary ui-button--md">
          <Trans>Go to your workspaces</Trans>
        </Link>
      </div>
    </Page>
  );
}
