import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { i18n } from '@lingui/core';
import { pathFor } from '../../../schema/routes';
import { PASSWORD_MIN_LENGTH } from '../../../schema/constants';
import { Accounts } from '../../api/endpoints';
import { session } from '../../api/session';
import { afterLoginPath } from '../../navigation/session';
import { Field, SubmitButton, useAction, useFieldErrors } from '../forms';
import { AuthFrame, FormError } from './AuthFrame';

/** Registration; on /register/invitation it claims the invited account of the mailed token. */
export default function RegisterPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const search = useSearch({ strict: false }) as { token?: string; email?: string; ref?: string };
  const invitation = search.token;
  // The referral link (/register?ref=code, decision 0260): kept for this tab's session, so a detour to the login page does not lose it.
  const referral = rememberedReferral(search.ref);
  const [name, setName] = useState('');
  const [email, setEmail] = useState(search.email ?? '');
  const [password, setPassword] = useState('');
  const problems = useFieldErrors();

  const [submit, busy] = useAction(
    async () => {
      problems.clear();
      const answer = await Accounts.register({ name, email, password, locale: i18n.locale, ...(invitation ? { invitation } : {}), ...(referral ? { referral } : {}) });
      await session.start(answer);
      await navigate({ href: afterLoginPath(answer.intended as string | undefined) });
    },
    {
      onError: (err) => {
        return problems.take(err);
      },
    },
  );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit();
  };

  return (
    <AuthFrame>
      {invitation && (
        <p>
          <Trans>You were invited to a workspace. Create your account to join it.</Trans>
        </p>
      )}
      <form onSubmit={onSubmit} className="form" noValidate>
        <Field label={t`Name`} name="name" autoComplete="name" required error={problems.fieldError('name')} value={name} onChange={(e) => setName(e.target.value)} />
        <Field label={t`Email`} type="email" name="email" autoComplete="email" required error={problems.fieldError('email')} value={email} onChange={(e) => setEmail(e.target.value)} />
        <Field
          label={t`Password`}
          type="password"
          name="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          hint={t`At least ${PASSWORD_MIN_LENGTH} characters.`}
          error={problems.fieldError('password')}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <FormError message={problems.message} />
        <SubmitButton busy={busy}>
          <Trans>Create account</Trans>
        </SubmitButton>
      </form>
      <p className="auth-links">
        <Link to={pathFor('login')}>
          <Trans>Already have an account? Log in</Trans>
        </Link>
      </p>
    </AuthFrame>
  );
}

const REFERRAL_KEY = 'cairn.referral';

function rememberedReferral(fromLink: unknown): string | undefined {
  try {
    if (typeof fromLink === 'string' && fromLink) sessionStorage.setItem(REFERRAL_KEY, fromLink.slice(0, 64));
    return sessionStorage.getItem(REFERRAL_KEY) ?? undefined;
  } catch {
    return typeof fromLink === 'string' && fromLink ? fromLink.slice(0, 64) : undefined;
  }
}
