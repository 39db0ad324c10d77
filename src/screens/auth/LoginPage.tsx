import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import { Accounts } from '../../api/endpoints';
import { ApiRequestError } from '../../api/client';
import { session } from '../../api/session';
import { afterLoginPath, isLocalPath } from '../../navigation/session';
import { Field, SubmitButton, useAction, useFieldErrors } from '../forms';
import { AuthFrame, FormError } from './AuthFrame';
import { DemoLoginHint } from './DemoLoginHint';

/** Login, with the two-factor step when the account has it on. */
export default function LoginPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const search = useSearch({ strict: false }) as { intended?: string };
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [step, setStep] = useState<'password' | 'code'>('password');
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState('');
  const problems = useFieldErrors();

  const [submit, busy] = useAction(
    async () => {
      problems.clear();
      const intended = isLocalPath(search.intended) ? search.intended : undefined;
      const second = step === 'code' ? (useRecovery ? { recoveryCode: code.trim() } : { totp: code.trim() }) : {};
      const answer = await Accounts.login({ email, password, intended, ...second });
      await session.start(answer);
      await navigate({ href: afterLoginPath(answer.intended as string | undefined, intended) });
    },
    {
      onError: (err) => {
        if (err instanceof ApiRequestError && err.type === 'two_factor_required') {
          setStep('code');
          return true;
        }
        if (err instanceof ApiRequestError && err.type === 'sso_required') {
          problems.setMessage(t`Your workspace signs in with single sign-on. Use “Sign in with single sign-on” below.`);
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
    <AuthFrame>
      <form onSubmit={onSubmit} className="form" noValidate>
        {step === 'password' ? (
          <>
            <Field label={t`Email`} type="email" name="email" autoComplete="username" required error={problems.fieldError('email')} value={email} onChange={(e) => setEmail(e.target.value)} />
            <Field label={t`Password`} type="password" name="password" autoComplete="current-password" required error={problems.fieldError('password')} value={password} onChange={(e) => setPassword(e.target.value)} />
          </>
        ) : (
          <>
            <p>{useRecovery ? <Trans>Enter one of your recovery codes.</Trans> : <Trans>Enter the six-digit code from your authenticator app.</Trans>}</p>
            <Field
              label={useRecovery ? t`Recovery code` : t`Authentication code`}
              name="code"
              inputMode={useRecovery ? 'text' : 'numeric'}
              autoComplete="one-time-code"
              autoFocus
              required
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
            <button type="button" className="link-button" onClick={() => setUseRecovery(!useRecovery)}>
              {useRecovery ? <Trans>Use your authenticator app instead</Trans> : <Trans>Use a recovery code instead</Trans>}
            </button>
          </>
        )}
        <FormError message={problems.message} />
        <SubmitButton busy={busy}>{step === 'password' ? <Trans>Log in</Trans> : <Trans>Verify</Trans>}</SubmitButton>
      </form>
      {step === 'password' ? (
        <DemoLoginHint
          onUse={(demo) => {
            setEmail(demo.email);
            setPassword(demo.password);
          }}
        />
      ) : null}
      <p className="auth-links">
        <Link to={pathFor('password.reset')}>
          <Trans>Forgot your password?</Trans>
        </Link>{' '}
        <Link to={pathFor('register')}>
          <Trans>Create an account</Trans>
        </Link>
        <Link to={pathFor('auth')}>
          <Trans>Sign in with single sign-on</Trans>
        </Link>
      </p>
    </AuthFrame>
  );
}
