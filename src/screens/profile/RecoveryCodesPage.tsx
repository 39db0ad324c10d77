import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import { Accounts } from '../../api/endpoints';
import { OnlineOnly } from '../../connectivity/OnlineOnly';
import { Page } from '../Page';
import { useAction } from '../forms';
import { useLoad } from '../workspace/use-team';
import { RecoveryCodeList } from './RecoveryCodeList';

/** How many recovery codes are left; new ones replace the old ones. */
export default function RecoveryCodesPage() {
  const status = useLoad(() => Accounts.twoFactorStatus(), []);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [regenerate, busy] = useAction(async () => {
    setCodes((await Accounts.regenerateRecoveryCodes()).recovery_codes);
    status.reload();
  });
  const left = status.data?.recovery_codes_left ?? 0;
  return (
    <Page narrow>
      {status.data && !status.data.enabled ? (
        <p>
          <Trans>Turn on two-factor authentication first.</Trans> <Link to={pathFor('profile.twoFactor.status')}><Trans>Two-factor authentication</Trans></Link>
        </p>
      ) : (
        <OnlineOnly>
          <p data-testid="codes-left">
            <Trans>Recovery codes left: {left}</Trans>
          </p>
          {codes && <RecoveryCodeList codes={codes} />}
          <button type="button" className="ui-button ui-button--primary ui-button--md" disabled={busy} onClick={() => void regenerate()}>
            <Trans>Generate new recovery codes</Trans>
          </button>
          <p>
            <Link to={pathFor('profile.twoFactor.status')}>
              <Trans>Back</Trans>
            </Link>
          </p>
        </OnlineOnly>
      )}
    </Page>
  );
}
