import { useState, type FormEvent } from 'react';
import { Link, useSearch } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import { ApiRequestError } from '../../api/client';
import { Sso } from '../../api/sso';
import { isLocalPath } from '../../navigation/session';
import { Field, SubmitButton, useAction, useFieldErrors } from '../forms';
import { AuthFrame, FormError } from './AuthFrame';
import { ssoErrorMessages } from './sso-errors';

/**
 * /auth (shell.md §2): single sign-on. The work e-mail finds the workspace by its domain, or the
 * workspace's sign-in link (`?workspace=12`) names it; the browser then goes to the identity provider.
 */
export default function SsoStartPage() {
  const { t, i18n } = useLingui();
  const search = useSearch({ strict: false }) as { workspace?: string | number; intended?: string; error?: string };
  const workspace = Number(search.workspace);
  const teamId = Number.isInteger(workspace) && workspace > 0 ? workspace : undefined;
  const [email, setEmail] = useState('');
  const problems = useFieldErrors();

  const [submit, busy] = useAction(
    async () => {
      problems.clear();
      const intended = isLocalPath(search.intended) ? search.intended : undefined;
      const started = await Sso.start({ ...(email.trim() ? { email: email.trim() } : {}), ...(teamId ? { team_id: teamId } : {}), intended });
      window.location.assign(started.url);
    },
    {
      onError: (err) => {
        const known = err instanceof ApiRequestError && err.type ? ssoErrorMessages[err.type] : undefined;
        if (known) {
          problems.setMessage(i18n._(known));
          return true;
        }
        return problems.take(err);
      },
    },
  );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit();
  };

  return (
    <AuthFrame title={t`Sign in with single sign-on`}>
      <form onSubmit={onSubmit} className="form" noValidate>
        {teamId ? (
          <p>
            <Trans>You will sign in with your workspace’s identity provider.</Trans>
          </p>
        ) : (
          <Field
            label={t`Work e-mail`}
            type="email"
            name="email"
            autoComplete="username"
            required
            hint={t`We find your workspace’s identity provider by your e-mail domain.`}
            error={problems.fieldError('email')}
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        )}
        <FormError message={problems.message} />
        <SubmitButton busy={busy}>
          <Trans>Continue with single sign-on</Trans>
        </SubmitButton>
      </form>
      <p className="auth-links">
        <Link to={pathFor('login')}>
          <Trans>Sign in with a password instead</Trans>
        </Link>
      </p>
    </AuthFrame>
  );
}
