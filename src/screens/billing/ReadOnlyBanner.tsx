import { Link } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import './billing-extras.css';

/**
 * A workspace whose subscription ended is read-only (workspace.md §4; decision 0360): shown on its
 * boards and its front page, in the words of the server's refusal ("trial expired, buy a plan"),
 * what still works, and — for the owner, who alone can buy — the way to the plans.
 */
export function ReadOnlyBanner({ reason, owner }: { reason: 'trial_expired' | 'expired'; owner: boolean }) {
  const { t } = useLingui();
  return (
    <div className="billing-trial-banner billing-trial-banner--expired" role="alert" data-testid="read-only-banner" data-reason={reason}>
      <p>
        <strong>{reason === 'trial_expired' ? t`Your trial has expired. Buy a plan to continue.` : t`Your subscription has expired. The workspace is read-only until a plan is bought.`}</strong>{' '}
        {t`You can still open and export everything, but nothing can be changed.`}
        {!owner && ` ${t`Ask the workspace owner to buy a plan.`}`}
      </p>
      {owner && <Link to={pathFor('profile.billing')}>{t`See the plans`}</Link>}
    </div>
  );
}
