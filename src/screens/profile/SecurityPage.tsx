import { Link } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import { useSession } from '../../api/session';
import { Page } from '../Page';
import { OnlineOnly } from '../../connectivity/OnlineOnly';
import { ChangeEmailForm } from './ChangeEmailForm';
import { SsoLinksSection } from './SsoLinksSection';

/** Account security overview: email verification, two-factor status, changing the email address, single sign-on links. */
export default function SecurityPage() {
  const { user } = useSession();
  if (!user) return <Page />;
  return (
    <Page narrow>
      <dl className="facts">
        <dt>
          <Trans>Email</Trans>
        </dt>
        <dd>
          {user.email}{' '}
          {user.email_verified ? (
            <span className="badge badge-success">
              <Trans>Verified</Trans>
            </span>
          ) : (
            <Link to={pathFor('verify-email')}>
              <Trans>Not verified</Trans>
            </Link>
          )}
        </dd>
        <dt>
          <Trans>Two-factor authentication</Trans>
        </dt>
        <dd data-testid="two-factor-state">
          {user.two_factor_enabled ? <Trans>On</Trans> : <Trans>Off</Trans>}{' '}
          <Link to={pathFor('profile.twoFactor')}>
            <Trans>Manage</Trans>
          </Link>
        </dd>
        <dt>
          <Trans>Password</Trans>
        </dt>
        <dd>
          <Link to={pathFor('password.reset')}>
            <Trans>Change it with a reset link</Trans>
          </Link>
        </dd>
      </dl>
      <OnlineOnly>
        <ChangeEmailForm current={user.email} />
        <SsoLinksSection />
      </OnlineOnly>
    </Page>
  );
}
