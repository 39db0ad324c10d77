import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import { Accounts } from '../../api/endpoints';
import { Field, SubmitButton, useFormAction } from '../forms';
import { AuthFrame, FormError } from './AuthFrame';

/** Asks for a reset link by mail. */
export default function PasswordResetPage() {
  const { t } = useLingui();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const { onSubmit, busy, error, fieldError } = useFormAction(async () => {
    await Accounts.forgotPassword(email);
    setSent(true);
  });
  return (
    <AuthFrame>
      {sent ? (
        <p role="status" data-testid="reset-sent">
          <Trans>If an account exists for {email}, we have sent a link to reset its password.</Trans>
        </p>
      ) : (
        <form onSubmit={onSubmit} className="form" noValidate>
          <Field label={t`Email`} type="email" name="email" autoComplete="email" required error={fieldError('email')} value={email} onChange={(e) => setEmail(e.target.value)} />
          <FormError message={error} />
          <SubmitButton busy={busy}>
            <Trans>Send reset link</Trans>
          </SubmitButton>
        </form>
      )}
      <p className="auth-links">
        <Link to={pathFor('login')}>
          <Trans>Back to log in</Trans>
        </Link>
      </p>
    </AuthFrame>
  );
}
