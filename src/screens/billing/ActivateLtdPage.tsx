import { useCallback, useEffect, useState } from 'react';
import { Link, useParams } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import { ApiRequestError } from '../../api/client';
import { useSession } from '../../api/session';
import { BusyButton } from '../../ui/BusyButton';
import { Spinner } from '../../ui/Spinner';
import { AuthFrame, FormError } from '../auth/AuthFrame';
import { ExtrasApi, type LtdCode } from './extras-api';
import { refusalText } from './billing-messages';
import './billing.css';
import './billing-extras.css';

/**
 * /activate-ltd/{code} (shell.md "activate-ltd"; issue #18, decision 0255): redeems a lifetime-deal
 * code once. Signed out, it asks to sign in or sign up first and comes back here. A used or unknown
 * code says so; a code the user already redeemed points to the billing page.
 */
export default function ActivateLtdPage() {
  const { t } = useLingui();
  const { code = '' } = useParams({ strict: false }) as { code?: string };
  const { status, user } = useSession();
  const [info, setInfo] = useState<LtdCode | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  const load = useCallback(async () => {
    try {
      setInfo(await ExtrasApi.ltdCode(code));
      setError(null);
    } catch (err) {
      setError(refusalText(err) ?? (err instanceof ApiRequestError && err.status === 404 ? t`This lifetime-deal code is not valid.` : t`Failed loading data`));
    }
  }, [code, t]);

  useEffect(() => {
    if (status !== 'loading') void load();
  }, [load, status, user?.id]);

  const activate = async () => {
    try {
      await ExtrasApi.redeem(code);
      setDone(true);
      setError(null);
    } catch (err) {
      setError(refusalText(err) ?? t`Something Went Wrong`);
      void load();
    }
  };

  const here = pathFor('activate-ltd', { code });
  const billing = pathFor('profile.billing');
  return (
    <AuthFrame title={t`Activate your deal`}>
      <div className="ltd-activate" data-testid="ltd-activate">
        <p className="ltd-activate__code">
          {t`Code:`} <code>{code}</code>
        </p>
        <FormError message={error} />
        {!info && !error ? <Spinner /> : null}
        {done ? (
          <>
            <p role="status" data-testid="ltd-activated">{t`Your lifetime deal is active. Your subscription now has the ${info?.plan_name ?? ''} plan for life.`}</p>
            <Link to={billing}>{t`See your plan`}</Link>
          </>
        ) : info?.redeemed_by_you ? (
          <>
            <p role="status">{t`This code is already active on your account.`}</p>
            <Link to={billing}>{t`See your plan`}</Link>
          </>
        ) : info?.redeemed ? (
          <p role="alert">{t`This lifetime-deal code has already been used.`}</p>
        ) : info ? (
          <>
            <p>{t`This code gives one subscription the ${info.plan_name} plan for life: no renewals, and add-ons can be bought on top.`}</p>
            {status === 'signedIn' && user && !user.guest ? (
              <BusyButton variant="primary" onClick={activate}>{t`Activate on my account`}</BusyButton>
            ) : (
              <p>
                {t`Sign in or create an account first; you will come back here.`}{' '}
                <Link to={`${pathFor('login')}?intended=${encodeURIComponent(here)}`}>{t`Sign in`}</Link>
                {' · '}
                <Link to={pathFor('register')}>{t`Sign up`}</Link>
              </p>
            )}
          </>
        ) : null}
      </div>
    </AuthFrame>
  );
}
