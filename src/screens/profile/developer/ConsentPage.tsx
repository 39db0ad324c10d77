import { useEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useLingui as useLinguiRuntime } from '@lingui/react';
import { ApiRequestError } from '../../../api/client';
import { useSession } from '../../../api/session';
import { useAction } from '../../forms';
import { ABILITY_LABELS } from './abilities';
import { Developer, type ConsentRequest } from './developer-api';
import './developer.css';

/** The parameters of an OAuth authorisation request this screen passes on (RFC 6749 §4.1.1, RFC 7636). */
export const AUTHORIZE_PARAMS = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method'] as const;

type Refusal = { error: string; description: string; redirect?: string };

/** An OAuth refusal's words and, when the app's redirect URI is trusted, where to send the user back. */
function refusalOf(error: unknown): Refusal | null {
  if (!(error instanceof ApiRequestError) || error.status < 400 || error.status >= 500) return null;
  const body = error.body as unknown as { error?: string; error_description?: string; redirect?: string } | null;
  if (!body?.error) return null;
  return { error: body.error, description: body.error_description ?? body.error, redirect: body.redirect };
}

/**
 * /oauth/authorize: an app asks for access. Shows the app and what it may do; Allow and Deny both
 * go back to the app's redirect URI (with a code, or with access_denied). A request with an unknown
 * app or a redirect URI the app did not register is refused here and never redirected.
 */
export default function ConsentPage() {
  const { t } = useLingui();
  const { i18n } = useLinguiRuntime();
  const [params] = useState(() => {
    const search = new URLSearchParams(window.location.search);
    return Object.fromEntries(AUTHORIZE_PARAMS.flatMap((key) => (search.has(key) ? [[key, search.get(key)!]] : []))) as Record<string, string>;
  });
  const [request, setRequest] = useState<ConsentRequest | null>(null);
  const { user } = useSession();
  const email = user?.email ?? '';
  const [refusal, setRefusal] = useState<Refusal | null>(null);

  useEffect(() => {
    let live = true;
    Developer.consent(new URLSearchParams(params))
      .then((data) => live && setRequest(data))
      .catch((error) => live && setRefusal(refusalOf(error) ?? { error: 'server_error', description: '' }));
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [params]);

  const [decide, busy] = useAction(
    async (allowed: boolean) => {
      const { redirect } = await Developer.decide(params, allowed);
      window.location.assign(redirect);
    },
    {
      onError: (error) => {
        const refused = refusalOf(error);
        if (refused) setRefusal(refused);
        return Boolean(refused);
      },
    },
  );

  return (
    <section className="consent" data-testid="consent">
      {refusal ? (
        <>
          <h1>
            <Trans>This request cannot be allowed</Trans>
          </h1>
          <p role="alert" data-testid="consent-error">
            {refusal.error === 'invalid_client'
              ? t`This app is not registered with Cairn.`
              : refusal.error === 'invalid_scope'
                ? t`The app asked for abilities Cairn does not offer.`
                : refusal.error === 'server_error'
                  ? t`The request could not be checked. Try again from the app.`
                  : t`The app sent an incomplete or wrong request.`}
          </p>
          {refusal.description && (
            <p className="consent-redirect">
              <code>{refusal.error}</code> {refusal.description}
            </p>
          )}
          {refusal.redirect && (
            <p>
              <a href={refusal.redirect}>
                <Trans>Return to the app</Trans>
              </a>
            </p>
          )}
        </>
      ) : !request ? (
        <p role="status">
          <Trans>Loading…</Trans>
        </p>
      ) : (
        <>
          <h1>
            <Trans>Allow {request.client.name} to use your Cairn account?</Trans>
          </h1>
          <p className="consent-account">
            <Trans>Signed in as {email}</Trans>
          </p>
          <p>
            <Trans>It will be able to:</Trans>
          </p>
          <ul data-testid="consent-abilities">
            {request.scopes.map((scope) => (
              <li key={scope}>
                <strong>{i18n._(ABILITY_LABELS[scope].name)}</strong> — {i18n._(ABILITY_LABELS[scope].text)}
              </li>
            ))}
          </ul>
          <p>
            <Trans>It acts as you and never gets more access than you have. You can revoke it at any time under Applications.</Trans>
          </p>
          <p className="consent-redirect">
            <Trans>You will be sent to {request.redirect_uri}</Trans>
          </p>
          <div className="consent-actions">
            <button type="button" className="ui-button ui-button--secondary ui-button--md" disabled={busy} onClick={() => void decide(false)}>
              <Trans>Deny</Trans>
            </button>
            <button type="button" className="ui-button ui-button--primary ui-button--md" disabled={busy} onClick={() => void decide(true)}>
              <Trans>Allow</Trans>
            </button>
          </div>
        </>
      )}
    </section>
  );
}
