import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Accounts } from '../../api/endpoints';
import { api } from '../../api/client';
import { session } from '../../api/session';
import { toast } from '../../ui/toast-store';
import { Field, SubmitButton, useFormAction } from '../forms';
import { FormError } from '../auth/AuthFrame';

/**
 * Change the account's email address (PUT /api/me/email). The new address is used at once but is
 * unverified until its link is opened; the old address is told; other sessions are signed out.
 * A sign-in older than 30 minutes first sends the user to confirm the password (and back here).
 */
export function ChangeEmailForm({ current }: { current: string }) {
  const { t } = useLingui();
  const [email, setEmail] = useState('');
  const { onSubmit, busy, error, fieldError } = useFormAction(async () => {
    await api.put('/api/me/email', { email: email.trim() });
    session.setUser(await Accounts.me());
    setEmail('');
    toast.show(t`Your email address was changed. Open the link we sent to the new address to verify it.`, { kind: 'success' });
  });
  return (
    <form className="form" onSubmit={onSubmit} noValidate data-testid="change-email">
      <h2>
        <Trans>Change email address</Trans>
      </h2>
      <Field
        label={t`New email address`}
        name="email"
        type="email"
        autoComplete="email"
        required
        maxLength={255}
        value={email}
        placeholder={current}
        hint={t`We send a verification link to the new address and tell the old one.`}
        error={fieldError('email')}
        onChange={(e) => setEmail(e.target.value)}
      />
      <FormError message={error} />
      <SubmitButton busy={busy}>
        <Trans>Change email</Trans>
      </SubmitButton>
    </form>
  );
}
