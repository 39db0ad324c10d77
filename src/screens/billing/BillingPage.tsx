import { useCallback, useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Messages } from '../../../schema/messages';
import { ApiRequestError } from '../../api/client';
import { useSession } from '../../api/session';
import { showApiError } from '../../api/handle-error';
import { appVars } from '../../app-vars';
import { BusyButton } from '../../ui/BusyButton';
import { EmptyState } from '../../ui/EmptyState';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../ui/toast-store';
import { Page } from '../Page';
import { useOnline } from '../../connectivity/use-connectivity';
import { Waiting } from '../../connectivity/Waiting';
import { BillingApi, usageLevel, usageRate, type BillingSubscription, type Plan, type PlanPrice } from './billing-api';
import './billing.css';
import { TrialBanner } from './TrialBanner';
import { BillingExtras } from './BillingExtras';
import { PaymentsSections } from './PaymentsSections';

const GB = 1024 * 1024 * 1024;

/** The server's billing refusals (schema/messages.ts) in the user's language. */
const refusals = new Map<string, MessageDescriptor>([
  [Messages.trialNotEligible, msg`You are not eligible for a trial. A trial is not allowed if you are already on a paid plan.`],
  [Messages.trialNeedsPaidPlan, msg`A trial is only for a paid plan.`],
  [Messages.trialAlreadyExtended, msg`Your trial has already been extended.`],
  [Messages.planNotFound, msg`Plan not found. Please contact support.`],
  [Messages.planNoLongerAvailable, msg`This plan is no longer available.`],
]);

/**
 * /profile/billing (issue #18 part 4, decision 0240): the current plan and its state, the trial
 * (days left, start, extend once), usage bars against the effective limits, and the plans.
 * Buying, invoices and cards: PaymentsSections (decision 0250).
 * With BILLING=off (app-vars `billing: false`) the page only says every workspace has the top plan.
 */
export default function BillingPage() {
  const { t, i18n } = useLingui();
  const { user } = useSession();
  const [billingOn, setBillingOn] = useState<boolean>(appVars.get().billing !== false);
  const [plans, setPlans] = useState<Plan[] | null>(null);
  const [subs, setSubs] = useState<BillingSubscription[] | null>(null);
  const [failed, setFailed] = useState(false);

  const load = useCallback(async () => {
    try {
      const [p, s] = await Promise.all([BillingApi.plans(), BillingApi.subscriptions()]);
      setPlans(p);
      setSubs(s);
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, []);

  useEffect(() => {
    let live = true;
    void appVars.loaded().then((vars) => live && setBillingOn(vars.billing !== false));
    if (user && !user.guest) void load();
    return () => {
      live = false;
    };
  }, [user, load]);
  // Opened offline: the page says it needs the server, and loads by itself once it answers.
  const online = useOnline();
  useEffect(() => {
    if (online && failed && user && !user.guest) void load();
  }, [online, failed, user, load]);

  if (!user) return <Page />;
  if (user.guest) {
    return (
      <Page narrow>
        <EmptyState title={t`Guests have no plan.`} text={t`Sign up to start a free trial.`} />
      </Page>
    );
  }
  if (!billingOn) {
    return (
      <Page narrow>
        <EmptyState title={t`Billing is off on this server.`} text={t`Every workspace has the highest plan’s limits.`} />
      </Page>
    );
  }
  if (failed && !online) {
    return (
      <Page>
        <Waiting />
      </Page>
    );
  }
  if (failed) {
    return (
      <Page>
        <p role="alert">{t`Failed loading data`}</p>
        <BusyButton onClick={load}>{t`Try again`}</BusyButton>
      </Page>
    );
  }
  if (!plans || !subs) {
    return (
      <Page>
        <Waiting spinner={<Spinner />} />
      </Page>
    );
  }

  const sub = subs[0];
  const formatPrice = (price: PlanPrice) => {
    const amount = new Intl.NumberFormat(i18n.locale, { style: 'currency', currency: price.currency }).format(price.amount / 100);
    if (price.interval === 'month') return t`${amount} a month`;
    if (price.interval === 'year') return t`${amount} a year`;
    return t`${amount} once, for life`;
  };
  const date = (iso: string | null) => (iso ? new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'long' }).format(new Date(iso)) : '');

  const refused = (error: unknown) => {
    const known = error instanceof ApiRequestError && error.body?.message ? refusals.get(error.body.message) : undefined;
    if (known) toast.show(i18n._(known), { kind: 'error' });
    else showApiError(error);
  };

  const startTrial = async (planId: string) => {
    try {
      await BillingApi.startTrial(planId);
      toast.show(t`Your trial has started.`);
      await load();
    } catch (error) {
      refused(error);
    }
  };
  const extendTrial = async () => {
    if (!sub) return;
    try {
      await BillingApi.extendTrial(sub.id);
      toast.show(t`Your trial has been extended by 30 days.`);
      await load();
    } catch (error) {
      refused(error);
    }
  };

  const stateText = (s: BillingSubscription) => {
    const days = s.trial?.days_left ?? 0;
    switch (s.state) {
      case 'trial':
        return t`On trial. Days left: ${days} (ends ${date(s.trial_ends_at)}).`;
      case 'trial_expired':
        return t`Your trial has expired. Buy a plan to continue.`;
      case 'cancelled':
        return t`Cancelled: runs until ${date(s.ends_at)}, then read-only.`;
      case 'expired':
        return t`Expired on ${date(s.ends_at)}.`;
      default:
        return t`Active.`;
    }
  };

  const bars = sub
    ? [
        { key: 'members', label: t`Members (fullest workspace)`, used: sub.usage.members, limit: sub.limits.members, text: `${sub.usage.members} / ${sub.limits.members}` },
        { key: 'workspaces', label: t`Workspaces`, used: sub.usage.workspaces, limit: sub.limits.workspaces, text: `${sub.usage.workspaces} / ${sub.limits.workspaces}` },
        {
          key: 'storage',
          label: t`Storage`,
          used: sub.usage.storage,
          limit: sub.limits.storage * GB,
          text: `${new Intl.NumberFormat(i18n.locale, { maximumFractionDigits: 2 }).format(sub.usage.storage / GB)} / ${sub.limits.storage} GB`,
        },
        {
          key: 'automation_runs',
          label: t`Automation runs this month (busiest workspace)`,
          used: sub.usage.automation_runs,
          limit: sub.limits.AutomationRunsLimit,
          text: `${new Intl.NumberFormat(i18n.locale).format(sub.usage.automation_runs)} / ${new Intl.NumberFormat(i18n.locale).format(sub.limits.AutomationRunsLimit)}`,
        },
      ]
    : [];

  return (
    <Page>
      {sub ? <TrialBanner sub={sub} onChanged={load} /> : null}
      {sub ? (
        <section aria-labelledby="billing-current" className="billing-current" data-state={sub.state}>
          <h2 id="billing-current">{t`Your plan: ${sub.plan?.name ?? sub.deal}`}</h2>
          <p className="billing-state">{stateText(sub)}</p>
          {sub.trial?.can_extend ? <BusyButton onClick={extendTrial}>{t`Extend the trial by 30 days`}</BusyButton> : null}
        </section>
      ) : null}
      {sub ? (
        <section aria-labelledby="billing-usage">
          <h2 id="billing-usage">{t`Usage`}</h2>
          <ul className="billing-usage">
            {bars.map((bar) => (
              <li key={bar.key} data-usage={bar.key} data-level={usageLevel(bar.used, bar.limit)}>
                <span className="billing-usage__label" id={`usage-${bar.key}`}>
                  {bar.label}
                </span>
                <span className="billing-usage__figure">{bar.text}</span>
                <progress aria-labelledby={`usage-${bar.key}`} max={1} value={usageRate(bar.used, bar.limit)} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="billing-plans">
        <h2 id="billing-plans">{t`Plans`}</h2>
        <ul className="billing-plans">
          {plans.map((plan) => {
            const current = sub?.deal === plan.id;
            const paid = plan.prices.some((p) => p.amount > 0);
            return (
              <li key={plan.id} className="billing-plan" data-plan={plan.id} aria-current={current ? 'true' : undefined}>
                <h3>{plan.name}</h3>
                <p className="billing-plan__prices">{paid ? plan.prices.filter((p) => p.currency === plan.prices[0]?.currency).map(formatPrice).join(' · ') : t`Free`}</p>
                <ul className="billing-plan__limits">
                  <li>{t`Workspaces: ${plan.limits.workspaces}`}</li>
                  <li>{t`Members per workspace: ${plan.limits.members}`}</li>
                  <li>{t`Storage: ${plan.limits.storage} GB`}</li>
                  <li>{t`Automation runs a month: ${new Intl.NumberFormat(i18n.locale).format(plan.limits.AutomationRunsLimit)}`}</li>
                  {plan.limits.proViews ? <li>{t`All views, Pro views included`}</li> : null}
                  {plan.limits.WhitelabelLimit > 0 ? <li>{t`White label`}</li> : null}
                </ul>
                {current ? (
                  <p className="billing-plan__current">{t`Current plan`}</p>
                ) : paid && sub?.trial_eligible && plan.prices.every((p) => p.interval !== 'lifetime') ? (
                  <BusyButton variant="primary" onClick={() => startTrial(plan.id)}>{t`Start a 14-day trial`}</BusyButton>
                ) : null}
              </li>
            );
          })}
        </ul>
      </section>
      <PaymentsSections sub={sub} />
      {sub ? <BillingExtras sub={sub} onChanged={load} /> : null}
    </Page>
  );
}
