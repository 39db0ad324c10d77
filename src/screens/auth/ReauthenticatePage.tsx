import { useState } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Accounts } from '../../api/endpoints';
import { isLocalPath } from '../../navigation/session';
import { pathFor } from '../../../schema/routes';
import { Field, SubmitButton, useFormAction } from '../forms';
import { AuthFrame, FormError } from './AuthFrame';

/** Privileged actions need the password again (30-minute window); then back to where the user was. */
export default function ReauthenticatePage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const search = useSearch({ strict: false }) as { redirect?: string };
  const [password, setPassword] = useState('');
  const { onSubmit, busy, error, fieldError } = useFormAction(async () => {
    await Accounts.reauthenticate(password);
    await navigate({ href: isLocalPath(search.redirect) ? search.redirect! : pathFor('home'), replace: true });
  });
  return (
    <AuthFrame>
      <p>
        <Trans>For your security, please enter your password to continue.</Trans>
      </p>
      <form onSubmit={onSubmit} className="form" noValidate>
        <Field label={t`Password`} type="password" name="password" autoComplete="current-password" required error={fieldError('password')} value={password} onChange={(e) => setPassword(e.target.value)} />
        <FormError message={error} />
        <SubmitButton busy={busy}>
          <Trans>Confirm</Trans>
        </SubmitButton>
      </form>
    </AuthFrame>
  );
}
