import { useCallback, useEffect, useState } from 'react';
import { Link, useParams } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import { useSession } from '../../api/session';
import { BusyButton } from '../../ui/BusyButton';
import { EmptyState } from '../../ui/EmptyState';
import { Spinner } from '../../ui/Spinner';
import { confirm } from '../../ui/confirm-store';
import { toast } from '../../ui/toast-store';
import { Page } from '../Page';
import { BillingApi, type BillingSubscription } from './billing-api';
import { ExtrasApi, type Addon, type AddonOffer } from './extras-api';
import { showRefusal } from './billing-messages';
import './billing.css';
import './billing-extras.css';

/**
 * subscription.buy-addon, /subscription/add-ons/{subscriptionId?} (issue #18, decision 0255):
 * the add-ons of a lifetime-deal subscription (the one named, else the first lifetime one) —
 * what is bought, buy another, replace one with a bigger one, remove one — with the limits they add.
 */
export default function AddonsPage() {
  const { t, i18n } = useLingui();
  const { user } = useSession();
  const params = useParams({ strict: false }) as { subscriptionId?: number };
  const [sub, setSub] = useState<BillingSubscription | null | undefined>(undefined);
  const [addons, setAddons] = useState<Addon[]>([]);
  const [offers, setOffers] = useState<AddonOffer[]>([]);
  const [replacing, setReplacing] = useState<Addon | null>(null);
  const [failed, setFailed] = useState(false);

  const load = useCallback(async () => {
    try {
      const subs = await BillingApi.subscriptions();
      const wanted = params.subscriptionId ? subs.find((s) => s.id === Number(params.subscriptionId)) : (subs.find((s) => s.deal === 'ltd') ?? subs[0]);
      setSub(wanted ?? null);
      if (wanted) {
        const list = await ExtrasApi.addons(wanted.id);
        setAddons(list.data);
        setOffers(list.available);
      }
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, [params.subscriptionId]);

  useEffect(() => {
    if (user && !user.guest) void load();
  }, [user, load]);

  const money = (amount: number, currency: string) => new Intl.NumberFormat(i18n.locale, { style: 'currency', currency }).format(amount / 100);
  const number = (n: number) => new Intl.NumberFormat(i18n.locale).format(n);
  const what = (limits: AddonOffer['limits']) =>
    [
      limits.workspaces ? t`Workspaces: +${number(limits.workspaces)}` : null,
      limits.members ? t`Members per workspace: +${number(limits.members)}` : null,
      limits.storage ? t`Storage: +${number(limits.storage)} GB` : null,
      limits.AutomationRunsLimit ? t`Automation runs a month: +${number(limits.AutomationRunsLimit)}` : null,
    ]
      .filter(Boolean)
      .join(', ');

  if (!user) return <Page />;
  if (failed) {
    return (
      <Page>
        <p role="alert">{t`Failed loading data`}</p>
        <BusyButton onClick={load}>{t`Try again`}</BusyButton>
      </Page>
    );
  }
  if (sub === undefined) {
    return (
      <Page>
        <Spinner />
      </Page>
    );
  }
  const billing = pathFor('profile.billing');
  if (!sub || offers.length === 0) {
    return (
      <Page narrow>
        <EmptyState
          title={t`This subscription cannot get add-ons. Add-ons are for lifetime-deal subscriptions.`}
          text={t`Redeem a lifetime-deal code, or see your plan.`}
          action={<Link to={billing}>{t`See your plan`}</Link>}
        />
      </Page>
    );
  }

  const buy = async (offer: AddonOffer) => {
    try {
      const bought = await ExtrasApi.buyAddon(sub.id, offer.id, replacing?.id);
      toast.show(bought.payment_status === 'paid' ? t`Add-on bought.` : t`Add-on added. No payment was taken: this server has no payment provider for add-ons.`, { kind: 'success' });
      setReplacing(null);
      await load();
    } catch (error) {
      showRefusal(error);
    }
  };
  const remove = async (addon: Addon) => {
    if (!(await confirm({ message: t`Remove this add-on? Its extra capacity goes at once and is not refunded.` }))) return;
    try {
      await ExtrasApi.removeAddon(sub.id, addon.id);
      toast.show(t`Add-on removed.`);
      await load();
    } catch (error) {
      showRefusal(error);
    }
  };

  return (
    <Page>
      <p>{t`Your plan: ${sub.plan?.name ?? sub.deal}`}</p>
      <p className="billing-note">{t`With add-ons: ${number(sub.limits.workspaces)} workspaces, ${number(sub.limits.members)} members per workspace, ${number(sub.limits.storage)} GB storage, ${number(sub.limits.AutomationRunsLimit)} automation runs a month.`}</p>
      <section aria-labelledby="addons-mine">
        <h2 id="addons-mine">{t`Your add-ons`}</h2>
        {addons.length === 0 ? (
          <p>{t`No add-ons yet.`}</p>
        ) : (
          <ul className="billing-addons">
            {addons.map((addon) => (
              <li key={addon.id} data-addon={addon.addon} aria-current={replacing?.id === addon.id ? 'true' : undefined}>
                <span>{what(addon.limits)}</span>
                <span className="billing-addons__price">{money(addon.amount, addon.currency)}</span>
                {addon.payment_status !== 'paid' ? <span className="billing-addons__note">{t`not charged`}</span> : null}
                <BusyButton size="sm" onClick={async () => setReplacing(replacing?.id === addon.id ? null : addon)}>
                  {replacing?.id === addon.id ? t`Keep it` : t`Replace`}
                </BusyButton>
                <BusyButton size="sm" variant="danger" onClick={() => remove(addon)}>{t`Remove`}</BusyButton>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="addons-offers">
        <h2 id="addons-offers">{replacing ? t`Replace “${what(replacing.limits)}” with` : t`Add-ons on offer`}</h2>
        {replacing ? <p className="billing-note">{t`You pay the difference in price; the replaced add-on ends now.`}</p> : null}
        <ul className="billing-addons">
          {offers.map((offer) => (
            <li key={offer.id} data-offer={offer.id}>
              <span>{what(offer.limits)}</span>
              <span className="billing-addons__price">{t`${money(offer.amount, offer.currency)} once`}</span>
              <BusyButton size="sm" variant="primary" onClick={() => buy(offer)}>{replacing ? t`Replace with this` : t`Buy`}</BusyButton>
            </li>
          ))}
        </ul>
      </section>
      <Link to={billing}>{t`Back to billing`}</Link>
    </Page>
  );
}
