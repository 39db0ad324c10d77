import { Link } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import type { BillingSubscription } from './billing-api';
import { CancelSubscription } from './CancelSubscription';
import './billing-extras.css';

/** The lower part of /profile/billing (decision 0255): add-ons of a lifetime deal, and the cancel flow. */
export function BillingExtras({ sub, onChanged }: { sub: BillingSubscription; onChanged: () => Promise<void> | void }) {
  const { t } = useLingui();
  return (
    <>
      {sub.deal === 'ltd' ? (
        <section aria-labelledby="billing-addons">
          <h2 id="billing-addons">{t`Add-ons`}</h2>
          <p>{t`Add workspaces, members, storage or automation runs to your lifetime deal.`}</p>
          <Link to={pathFor('subscription.buy-addon', { subscriptionId: sub.id })}>{t`Manage add-ons`}</Link>
        </section>
      ) : null}
      <CancelSubscription sub={sub} onChanged={onChanged} />
    </>
  );
}
