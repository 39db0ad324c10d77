import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import { ApiRequestError } from '../../api/client';
import { session } from '../../api/session';
import { Sso } from '../../api/sso';
import { afterLoginPath, isLocalPath } from '../../navigation/session';
import { translateMessage } from '../../i18n/server-messages';
import { toast } from '../../ui/toast-store';
import { Field, SubmitButton, useAction, useFieldErrors } from '../forms';
import { AuthFrame, FormError } from './AuthFrame';
import { ssoErrorMessages } from './sso-errors';

/** One exchange per page load: the sign-in in flight is single use (a second render must not spend it again). */
const exchanges = new Map<string, ReturnType<typeof Sso.callback>>();

/**
 * /s/auth/redirect (shell.md §2): the identity provider sends the browser back here. The server
 * checks the answer (state, code with PKCE, ID token) and starts a session like a password login;
 * an account with two-factor on then gives its code here; a link started from the security
 * settings goes back there. A refusal is shown in plain words with a way to start again.
 */
export default function SsoRedirectPage() {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const [problem, setProblem] = useState<{ text: string; detail: string | null } | null>(null);
  const [needsCode, setNeedsCode] = useState(false);

  useEffect(() => {
    const search = window.location.search;
    const params = Object.fromEntries(new URLSearchParams(search));
    let exchange = exchanges.get(search);
    if (!exchange) {
      exchange = Sso.callback(params);
      exchanges.set(search, exchange);
    }
    let live = true;
    exchange
      .then(async (answer) => {
        if (answer.linked) {
          // A link of the signed-in account: nobody new is signed in.
          toast.show(t`The identity provider is linked to your account.`, { kind: 'success' });
          const to = typeof answer.intended === 'string' && isLocalPath(answer.intended) ? answer.intended : pathFor('profile.security');
          if (live) await navigate({ href: to, replace: true });
          return;
        }
        await session.start(answer);
        if (live) await navigate({ href: afterLoginPath(answer.intended as string | undefined), replace: true });
      })
      .catch((error: unknown) => {
        if (!live) return;
        const type = error instanceof ApiRequestError ? error.type : undefined;
        if (type === 'two_factor_required') {
          setNeedsCode(true);
          return;
        }
        const known = type ? ssoErrorMessages[type] : undefined;
        const detail = error instanceof ApiRequestError ? ((error.body?.data as { error?: string } | undefined)?.error ?? null) : null;
        const text = known ? i18n._(known) : error instanceof ApiRequestError && error.body?.message ? translateMessage(error.body.message) : i18n._(ssoErrorMessages.sso_failed!);
        setProblem({ text, detail });
      });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const detail = problem?.detail;
  return (
    <AuthFrame>
      {problem ? (
        <>
          <p className="form-error" role="alert" data-testid="sso-error">
            {problem.text}
          </p>
          {detail && (
            <p className="muted">
              <Trans>Details from the identity provider: {detail}</Trans>
            </p>
          )}
          <p className="auth-links">
            <Link to={pathFor('auth')}>
              <Trans>Try single sign-on again</Trans>
            </Link>{' '}
            <Link to={pathFor('login')}>
              <Trans>Sign in with a password</Trans>
            </Link>
          </p>
        </>
      ) : needsCode ? (
        <SecondFactor onProblem={(text) => setProblem({ text, detail: null })} />
      ) : (
        <p role="status">
          <Trans>Signing you in…</Trans>
        </p>
      )}
    </AuthFrame>
  );
}

/** The second step for an account with two-factor on: its code or a recovery code (the server keeps the sign-in waiting 10 minutes). */
function SecondFactor({ onProblem }: { onProblem: (text: string) => void }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState('');
  const problems = useFieldErrors();
  const [submit, busy] = useAction(
    async () => {
      problems.clear();
      const answer = await Sso.secondFactor(useRecovery ? { recoveryCode: code.trim() } : { totp: code.trim() });
      await session.start(answer);
      await navigate({ href: afterLoginPath(answer.intended as string | undefined), replace: true });
    },
    {
      onError: (err) => {
        if (err instanceof ApiRequestError && err.type === 'sso_state_mismatch') {
          onProblem(i18n._(ssoErrorMessages.sso_state_mismatch!));
          return true;
        }
        if (err instanceof ApiRequestError && err.type === 'two_factor_invalid') {
          problems.setMessage(useRecovery ? t`The recovery code is not valid or was already used.` : t`The two-factor code is not valid.`);
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
    <form onSubmit={onSubmit} className="form" noValidate data-testid="sso-second-factor">
      <p>{useRecovery ? <Trans>Your identity provider signed you in. Enter one of your recovery codes to finish.</Trans> : <Trans>Your identity provider signed you in. Enter the six-digit code from your authenticator app to finish.</Trans>}</p>
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
      <FormError message={problems.message} />
      <SubmitButton busy={busy}>
        <Trans>Verify</Trans>
      </SubmitButton>
    </form>
  );
}
