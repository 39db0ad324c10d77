import { useEffect, useRef, useState } from 'react';
import { Link, useSearch } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import { Accounts } from '../../api/endpoints';
import { useSession, session } from '../../api/session';
import { toast } from '../../ui/toast-store';
import { ApiRequestError } from '../../api/client';
import { translateMessage } from '../../i18n/server-messages';
import { useAction } from '../forms';
import { AuthFrame, FormError } from './AuthFrame';

/**
 * With ?token= from the mail it verifies the address; without, it explains and offers to resend the
 * link (users land here when the server says "Your email address is not verified.").
 */
export default function VerifyEmailPage() {
  const { t } = useLingui();
  const search = useSearch({ strict: false }) as { token?: string };
  const { status, user } = useSession();
  const [state, setState] = useState<'idle' | 'verifying' | 'verified' | 'failed'>(search.token ? 'verifying' : 'idle');
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (!search.token || started.current) return;
    started.current = true;
    Accounts.verifyEmail(search.token)
      .then(async () => {
        setState('verified');
        if (session.get().status === 'signedIn') session.setUser(await Accounts.me());
      })
      .catch((err) => {
        setState('failed');
        setError(err instanceof ApiRequestError ? translateMessage(err.body?.message ?? '') : null);
      });
  }, [search.token]);

  const [resend, busy] = useAction(async () => {
    await Accounts.resendVerification();
    toast.show(t`We have sent a new verification link.`, { kind: 'success' });
  });

  return (
    <AuthFrame>
      {state === 'verifying' && (
        <p role="status">
          <Trans>Verifying your email address…</Trans>
        </p>
      )}
      {state === 'verified' && (
        <p role="status" data-testid="verified">
          <Trans>Your email address is verified.</Trans>
        </p>
      )}
      {state === 'failed' && <FormError message={error} />}
      {state !== 'verified' && (
        <>
          <p>
            <Trans>We sent a verification link to your email address. Open it to confirm the address.</Trans>
            {user?.email ? ` (${user.email})` : null}
          </p>
          {status === 'signedIn' && (
            <button type="button" className="ui-button ui-button--primary ui-button--md" disabled={busy} onClick={() => void resend()}>
              <Trans>Send the link again</Trans>
            </button>
          )}
        </>
      )}
      <p className="auth-links">
        <Link to={status === 'signedIn' ? pathFor('home') : pathFor('login')}>
          <Trans>Continue</Trans>
        </Link>
      </p>
    </AuthFrame>
  );
}
