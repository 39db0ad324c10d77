import { useLingui } from '@lingui/react/macro';
import type { BillingSubscription } from './billing-api';
import './billing-extras.css';

/**
 * The trial banner of /profile/billing (workspace.md §4, §9; issue #18, decision 0255): days left
 * on a trial, "trial expired, buy a plan" after it, and a way to the plans. The one 30-day extension
 * is the "Extend the trial by 30 days" button of the plan section just below (decision 0240).
 */
export function TrialBanner({ sub }: { sub: BillingSubscription; onChanged?: () => Promise<void> | void }) {
  const { t } = useLingui();
  if (sub.state !== 'trial' && sub.state !== 'trial_expired') return null;
  const days = sub.trial?.days_left ?? 0;
  const expired = sub.state === 'trial_expired';
  return (
    <div className={`billing-trial-banner${expired ? ' billing-trial-banner--expired' : ''}`} role={expired ? 'alert' : 'status'} data-testid="trial-banner" data-state={sub.state}>
      <p>{expired ? t`Your trial has expired. Buy a plan to continue.` : days === 1 ? t`Your trial ends tomorrow.` : t`Your trial ends in ${days} days.`}</p>
      <a href="#billing-plans">{t`See the plans`}</a>
    </div>
  );
}
