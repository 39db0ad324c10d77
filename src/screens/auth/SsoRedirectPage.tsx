import { useEffect, useState } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import { ApiRequestError } from '../../api/client';
import { session } from '../../api/session';
import { Sso } from '../../api/sso';
import { afterLoginPath } from '../../navigation/session';
import { translateMessage } from '../../i18n/server-messages';
import { AuthFrame } from './AuthFrame';
import { ssoErrorMessages } from './sso-errors';

/** One exchange per page load: the sign-in in flight is single use (a second render must not spend it again). */
const exchanges = new Map<string, ReturnType<typeof Sso.callback>>();

/**
 * /s/auth/redirect (shell.md §2): the identity provider sends the browser back here. The server
 * checks the answer (state, code with PKCE, ID token) and starts a session like a password login;
 * a refusal is shown in plain words with a way to start again.
 */
export default function SsoRedirectPage() {
  const { i18n } = useLingui();
  const navigate = useNavigate();
  const [problem, setProblem] = useState<{ text: string; detail: string | null } | null>(null);

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
        await session.start(answer);
        if (live) await navigate({ href: afterLoginPath(answer.intended as string | undefined), replace: true });
      })
      .catch((error: unknown) => {
        if (!live) return;
        const type = error instanceof ApiRequestError ? error.type : undefined;
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
      ) : (
        <p role="status">
          <Trans>Signing you in…</Trans>
        </p>
      )}
    </AuthFrame>
  );
}
