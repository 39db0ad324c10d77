import { useState } from 'react';
import { useNavigate, useParams } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import { PASSWORD_MIN_LENGTH } from '../../../schema/constants';
import { Accounts } from '../../api/endpoints';
import { toast } from '../../ui/toast-store';
import { Field, SubmitButton, useFormAction } from '../forms';
import { AuthFrame, FormError } from './AuthFrame';

/** Sets a new password from the mailed link /password/reset/{token}/{email}. */
export default function PasswordSetPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const params = useParams({ strict: false }) as { token?: string; email?: string };
  const [password, setPassword] = useState('');
  const { onSubmit, busy, error, fieldError } = useFormAction(async () => {
    await Accounts.resetPassword({ token: params.token ?? '', email: params.email ?? '', password });
    toast.show(t`Your password has been reset. Please log in.`, { kind: 'success' });
    await navigate({ href: pathFor('login') });
  });
  return (
    <AuthFrame>
      <form onSubmit={onSubmit} className="form" noValidate>
        <p>
          <Trans>Choose a new password for {params.email}.</Trans>
        </p>
        <Field
          label={t`New password`}
          type="password"
          name="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          hint={t`At least ${PASSWORD_MIN_LENGTH} characters.`}
          error={fieldError('password')}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <FormError message={error} />
        <SubmitButton busy={busy}>
          <Trans>Set password</Trans>
        </SubmitButton>
      </form>
    </AuthFrame>
  );
}
