import { useState, type FormEvent } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import { Accounts } from '../../api/endpoints';
import { session } from '../../api/session';
import { OnlineOnly } from '../../connectivity/OnlineOnly';
import { toast } from '../../ui/toast-store';
import { confirm } from '../../ui/confirm-store';
import { Page } from '../Page';
import { Field, SubmitButton, useAction } from '../forms';
import { FormError } from '../auth/AuthFrame';
import { inlineErrorOf } from '../auth/form-errors';
import { useLoad } from '../workspace/use-team';
import { RecoveryCodeList } from './RecoveryCodeList';
import { Waiting } from '../../connectivity/Waiting';

/** Two-factor status and provisioning: start (QR code), confirm with a code, disable. */
export default function TwoFactorPage() {
  const { t } = useLingui();
  const status = useLoad(() => Accounts.twoFactorStatus(), []);
  const [setup, setSetup] = useState<{ secret: string; qr_code: string } | null>(null);
  const [code, setCode] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const inline = (err: unknown) => {
    const text = inlineErrorOf(err);
    setError(text);
    return Boolean(text);
  };

  const [start, starting] = useAction(async () => {
    setError(null);
    setSetup(await Accounts.twoFactorStart());
  }, { onError: inline });
  const [confirmCode, confirming] = useAction(async () => {
    setError(null);
    const answer = await Accounts.twoFactorConfirm(code.trim());
    setCodes(answer.recovery_codes);
    setSetup(null);
    session.setUser(await Accounts.me());
    status.reload();
  }, { onError: inline });
  const [disable, disabling] = useAction(async () => {
    if (!(await confirm({ message: t`Turn off two-factor authentication?`, danger: true }))) return;
    await Accounts.twoFactorDisable();
    session.setUser(await Accounts.me());
    toast.show(t`Two-factor authentication is off.`, { kind: 'success' });
    setCodes(null);
    status.reload();
  });
  const onConfirm = (event: FormEvent) => {
    event.preventDefault();
    void confirmCode();
  };

  const enabled = status.data?.enabled;
  return (
    <Page narrow>
      {status.data === null ? (
        <Waiting />
      ) : (
        <OnlineOnly>
          <p data-testid="two-factor-status">{enabled ? <Trans>Two-factor authentication is on.</Trans> : <Trans>Two-factor authentication is off.</Trans>}</p>
          {codes && <RecoveryCodeList codes={codes} />}
          {enabled ? (
            <div className="button-row">
              <Link to={pathFor('profile.twoFactor.recoveryCodes')} className="ui-button ui-button--secondary ui-button--md">
                <Trans>Recovery codes</Trans>
              </Link>
              <button type="button" className="ui-button ui-button--danger ui-button--md" disabled={disabling} onClick={() => void disable()}>
                <Trans>Turn off</Trans>
              </button>
            </div>
          ) : setup ? (
            <form className="form" onSubmit={onConfirm} noValidate>
              <p>
                <Trans>Scan this code with your authenticator app, then enter the six-digit code it shows.</Trans>
              </p>
              <img src={setup.qr_code} alt={t`QR code for your authenticator app`} width={180} height={180} className="qr" />
              <p className="muted">
                <Trans>Or enter this key by hand:</Trans> <code data-testid="totp-secret">{setup.secret}</code>
              </p>
              <Field label={t`Authentication code`} name="code" inputMode="numeric" autoComplete="one-time-code" required value={code} onChange={(e) => setCode(e.target.value)} />
              <FormError message={error} />
              <SubmitButton busy={confirming}>
                <Trans>Turn on</Trans>
              </SubmitButton>
            </form>
          ) : (
            <>
              <FormError message={error} />
              <button type="button" className="ui-button ui-button--primary ui-button--md" disabled={starting} onClick={() => void start()}>
                <Trans>Set up two-factor authentication</Trans>
              </button>
            </>
          )}
        </OnlineOnly>
      )}
    </Page>
  );
}
