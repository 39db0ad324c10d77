import { useState, type FormEvent } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import { Accounts } from '../../api/endpoints';
import { Field, SubmitButton, useAction } from '../forms';
import { AuthFrame, FormError } from './AuthFrame';
import { inlineErrorOf } from './form-errors';

/** Asks for a reset link by mail. */
export default function PasswordResetPage() {
  const { t } = useLingui();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [submit, busy] = useAction(
    async () => {
      setError(null);
      await Accounts.forgotPassword(email);
      setSent(true);
    },
    {
      onError: (err) => {
        const inline = inlineErrorOf(err);
        setError(inline);
        return Boolean(inline);
      },
    },
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit();
  };
  return (
    <AuthFrame>
      {sent ? (
        <p role="status" data-testid="reset-sent">
          <Trans>If an account exists for {email}, we have sent a link to reset its password.</Trans>
        </p>
      ) : (
        <form onSubmit={onSubmit} className="form" noValidate>
          <Field label={t`Email`} type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
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
