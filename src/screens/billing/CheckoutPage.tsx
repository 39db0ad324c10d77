import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link, useMatches, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import { useSession } from '../../api/session';
import { showApiError } from '../../api/handle-error';
import { appVars } from '../../app-vars';
import { Button } from '../../ui/Button';
import { Spinner } from '../../ui/Spinner';
import { AuthFrame, FormError } from '../auth/AuthFrame';
import { BillingApi, type BillingSubscription, type Plan, type PlanPrice } from './billing-api';
import { PaymentsApi, formatMoney, lineText, refusalText, type PaymentMethod, type Quote } from './payments-api';
import { CardForm, EMPTY_CARD, cardOf, type CardDraft } from './CardForm';
import { cardSetupRefusal, goToCardSetup, useCardSetupReturn } from './card-setup';
import './billing.css';
import './payments.css';

const isPaidPlan = (plan: Plan) => plan.prices.some((p) => p.amount > 0);
const rank = (plan: Plan) => plan.level * 1000 + plan.tier;

/**
 * `checkout` (/checkout?plan=&price=) and `subscription.upgrade` (/subscription/upgrade/{id?})
 * (shell.md; issue #18, decision 0250): pick a plan and a price, a saved card or a new one (the
 * local provider's card form), an optional coupon, and pay. A paid purchase goes to
 * `subscription.redirect`. The upgrade screen offers the plans the spec lets this subscription
 * move to (any from a trial or the free plan; else higher ones in the same version, or lower
 * ones as a downgrade); the server decides and answers in the spec's words.
 */
export default function CheckoutPage() {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const matches = useMatches();
  const routeName = (matches[matches.length - 1]?.staticData as { route?: { name: string } } | undefined)?.route?.name;
  const upgrade = routeName === 'subscription.upgrade';
  const params = useParams({ strict: false }) as { subscriptionId?: string | number };
  const search = useSearch({ strict: false }) as { plan?: string; price?: string; subscription?: string | number };
  const { status, user } = useSession();
  const [plans, setPlans] = useState<Plan[] | null>(null);
  const [subs, setSubs] = useState<BillingSubscription[] | null>(null);
  const [methods, setMethods] = useState<PaymentMethod[]>([]);
  const [planId, setPlanId] = useState<string>(search.plan ?? '');
  const [priceId, setPriceId] = useState<string>(search.price ?? '');
  const [cardChoice, setCardChoice] = useState<number | 'new'>('new');
  // The card saved on this visit (back from the provider's page, or typed here). The first load's
  // list can answer after the card was saved and not hold it yet: it is kept and stays chosen.
  const savedHere = useRef<PaymentMethod | null>(null);
  const [card, setCard] = useState<CardDraft>(EMPTY_CARD);
  const [invalid, setInvalid] = useState<'number' | 'expiry' | 'cvc' | null>(null);
  const [coupon, setCoupon] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const [quote, setQuote] = useState<Quote | null>(null);
  const [quoteError, setQuoteError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const local = (appVars.get().paymentProviderKey ?? 'local') === 'local';
  const payAmount = (p: PlanPrice | undefined) => (p ? formatMoney(i18n.locale, p.amount, p.currency) : '');

  const wantedId = Number(params.subscriptionId ?? search.subscription) || undefined;

  const load = useCallback(async () => {
    try {
      const [p, s, m] = await Promise.all([BillingApi.plans(), BillingApi.subscriptions(), PaymentsApi.methods()]);
      setPlans(p);
      setSubs(s);
      const saved = savedHere.current;
      setMethods(saved ? [saved, ...m.filter((x) => x.id !== saved.id)] : m);
      if (saved) setCardChoice(saved.id);
      else if (m[0]) setCardChoice(m[0].id);
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, []);

  useEffect(() => {
    if (status === 'signedIn' && user && !user.guest) void load();
  }, [status, user, load]);

  // Back from the provider's card page (Stripe, decision 0300): the card entered there is chosen to pay with.
  useCardSetupReturn(status === 'signedIn' && Boolean(user) && !user?.guest, (result) => {
    if (result.kind === 'saved') {
      const m = result.method;
      savedHere.current = m;
      setMethods((list) => [m, ...list.filter((x) => x.id !== m.id)]);
      setCardChoice(m.id);
      const brand = m.brand.toUpperCase();
      const last4 = m.last4;
      setNotice(t`Card saved: ${brand} ending in ${last4}. Check the total and pay.`);
    } else if (result.kind === 'cancelled') {
      setNotice(t`No card was added.`);
    } else {
      const known = cardSetupRefusal(result.error, i18n) ?? refusalText(result.error, i18n);
      if (known) setError(known);
      else showApiError(result.error);
    }
  });

  const sub = subs ? (wantedId ? subs.find((s) => s.id === wantedId) : subs[0]) : undefined;

  const choices = useMemo(() => {
    if (!plans) return [];
    const paid = plans.filter(isPaidPlan);
    if (!upgrade || !sub) return paid;
    const current = plans.find((p) => p.id === sub.deal);
    const fromTrial = sub.state === 'trial' || sub.state === 'trial_expired' || !current || !isPaidPlan(current);
    if (fromTrial) return paid;
    // A lifetime deal cannot be changed (the server says so too).
    if (current.prices.length > 0 && current.prices.every((p) => p.interval === 'lifetime')) return [];
    return paid.filter((p) => p.version === current.version && (p.id !== current.id || p.prices.length > 1) && (rank(p) < rank(current) || current.isUpgradable || p.id === current.id));
  }, [plans, sub, upgrade]);

  const plan = choices.find((p) => p.id === planId) ?? choices[0];
  const prices = plan ? plan.prices.filter((p) => p.amount > 0) : [];
  const price = prices.find((p) => p.id === priceId) ?? prices[0];

  // What paying will charge now (proration, coupon, credit), asked again when the choice changes.
  const planKey = plan?.id;
  const priceKey = price?.id;
  const subKey = sub?.id;
  useEffect(() => {
    if (!planKey || !priceKey) return;
    let live = true;
    const timer = window.setTimeout(() => {
      PaymentsApi.quote({ plan: planKey, price: priceKey, coupon: coupon.trim() || undefined, subscription_id: subKey }).then(
        (q) => {
          if (!live) return;
          setQuote(q);
          setQuoteError(null);
        },
        (e) => {
          if (!live) return;
          setQuote(null);
          setQuoteError(refusalText(e, i18n));
        },
      );
    }, 250);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [planKey, priceKey, subKey, coupon, i18n]);

  const here = typeof window === 'undefined' ? pathFor('checkout') : window.location.pathname + window.location.search;
  const title = upgrade ? t`Change your plan` : t`Checkout`;

  if (status !== 'signedIn' || !user) {
    return (
      <AuthFrame title={title}>
        {status === 'loading' ? (
          <Spinner />
        ) : (
          <p>
            {t`Sign in or create an account first; you will come back here.`}{' '}
            <Link to={`${pathFor('login')}?intended=${encodeURIComponent(here)}`}>{t`Sign in`}</Link>
          </p>
        )}
      </AuthFrame>
    );
  }
  if (user.guest) {
    return (
      <AuthFrame title={title}>
        <p>{t`Guests have no plan.`}</p>
      </AuthFrame>
    );
  }
  if (appVars.get().billing === false) {
    return (
      <AuthFrame title={title}>
        <p>{t`Billing is off on this server.`}</p>
      </AuthFrame>
    );
  }
  if (failed) {
    return (
      <AuthFrame title={title}>
        <p role="alert">{t`Failed loading data`}</p>
        <Button onClick={() => void load()}>{t`Try again`}</Button>
      </AuthFrame>
    );
  }
  if (!plans || !subs) {
    return (
      <AuthFrame title={title}>
        <Spinner />
      </AuthFrame>
    );
  }

  const intervalText = (p: PlanPrice) => {
    const amount = formatMoney(i18n.locale, p.amount, p.currency);
    if (p.interval === 'month') return t`${amount} a month`;
    if (p.interval === 'year') return t`${amount} a year`;
    return t`${amount} once, for life`;
  };

  const amountDue = quote && quote.plan === plan?.id && quote.price === price?.id ? formatMoney(i18n.locale, quote.total, quote.currency) : payAmount(price);
  const date = (iso: string | null | undefined) => (iso ? new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'long' }).format(new Date(iso)) : '');

  const pay = async (event: FormEvent) => {
    event.preventDefault();
    if (!plan || !price || busy) return;
    setError(null);
    setInvalid(null);
    let cardId = cardChoice === 'new' ? undefined : cardChoice;
    if (cardChoice === 'new' && !local) {
      // The card is typed on the provider's page; this page comes back with it chosen, to pay.
      setBusy(true);
      try {
        const back = new URLSearchParams(window.location.search);
        back.set('plan', plan.id);
        back.set('price', price.id);
        await goToCardSetup(`${window.location.pathname}?${back.toString()}`);
      } catch (e) {
        setBusy(false);
        showApiError(e);
      }
      return;
    }
    if (cardChoice === 'new') {
      const parsed = cardOf(card);
      if ('invalid' in parsed) {
        setInvalid(parsed.invalid);
        setError(parsed.invalid === 'number' ? t`Enter the card number.` : parsed.invalid === 'expiry' ? t`Enter the expiry as MM/YY.` : t`Enter the card’s 3 or 4 digit security code.`);
        return;
      }
      setBusy(true);
      try {
        const saved = await PaymentsApi.addCard(parsed);
        savedHere.current = saved;
        setMethods((m) => [saved, ...m.filter((x) => x.id !== saved.id)]);
        setCardChoice(saved.id);
        setCard(EMPTY_CARD);
        cardId = saved.id;
      } catch (e) {
        setBusy(false);
        const known = refusalText(e, i18n);
        if (known) setError(known);
        else showApiError(e);
        return;
      }
    }
    setBusy(true);
    try {
      const result = await PaymentsApi.buy({ plan: plan.id, price: price.id, card_id: cardId, coupon: coupon.trim() || undefined }, sub?.id);
      await navigate({ to: pathFor('subscription.redirect'), search: { invoice: result.invoice.id } as never });
    } catch (e) {
      const known = refusalText(e, i18n);
      if (known) setError(known);
      else showApiError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthFrame title={title}>
      {/* The local provider takes published test cards: never let a buyer think money moved (N7). */}
      {local ? (
        <p className="billing-note checkout-test-provider" role="note" data-test-provider="local">
          {t`Test payment provider: this server takes only test cards. No card is charged and no money is taken.`}
        </p>
      ) : null}
      {sub ? <p className="checkout-current">{t`Your plan: ${sub.plan?.name ?? sub.deal}`}</p> : null}
      {choices.length === 0 ? (
        <p role="alert">{t`Your plan cannot be changed to this plan.`}</p>
      ) : (
        <form className="form checkout" onSubmit={pay} noValidate aria-busy={busy}>
          <fieldset className="checkout-plans">
            <legend>{t`Plan`}</legend>
            {choices.map((p) => (
              <label key={p.id} className="checkout-choice" data-plan={p.id}>
                <input type="radio" name="plan" value={p.id} checked={plan?.id === p.id} onChange={() => setPlanId(p.id)} />
                <span>{p.name}</span>
              </label>
            ))}
          </fieldset>
          {prices.length > 0 ? (
            <fieldset className="checkout-prices">
              <legend>{t`Price`}</legend>
              {prices.map((p) => (
                <label key={p.id} className="checkout-choice" data-price={p.id}>
                  <input type="radio" name="price" value={p.id} checked={price?.id === p.id} onChange={() => setPriceId(p.id)} />
                  <span>{intervalText(p)}</span>
                </label>
              ))}
            </fieldset>
          ) : null}
          {methods.length > 0 ? (
            <fieldset className="checkout-cards">
              <legend>{t`Pay with`}</legend>
              {methods.map((m) => {
                const brand = m.brand.toUpperCase();
                const last4 = m.last4;
                return (
                  <label key={m.id} className="checkout-choice">
                    <input type="radio" name="card" checked={cardChoice === m.id} onChange={() => setCardChoice(m.id)} />
                    <span>{t`${brand} ending in ${last4}`}</span>
                  </label>
                );
              })}
              <label className="checkout-choice">
                <input type="radio" name="card" checked={cardChoice === 'new'} onChange={() => setCardChoice('new')} />
                <span>{t`A new card`}</span>
              </label>
            </fieldset>
          ) : null}
          {cardChoice === 'new' && local ? <CardForm value={card} onChange={setCard} invalid={invalid} local={local} /> : null}
          {cardChoice === 'new' && !local ? <p className="billing-note">{t`You will enter the card on Stripe’s secure page, then come back here to pay.`}</p> : null}
          {notice ? (
            <p className="billing-note" role="status">
              {notice}
            </p>
          ) : null}
          <div className="field">
            <label htmlFor="checkout-coupon">{t`Coupon (optional)`}</label>
            <input id="checkout-coupon" name="coupon" autoComplete="off" value={coupon} onChange={(e) => setCoupon(e.target.value)} />
          </div>
          {quote && quote.plan === plan?.id && quote.price === price?.id ? (
            <section className="checkout-quote" aria-label={t`Due now`}>
              <ul className="invoice-lines">
                {quote.lines.map((line, index) => (
                  <li key={index}>
                    <span>{lineText(line, i18n, date)}</span>
                    <span className="invoice-amount">{formatMoney(i18n.locale, line.amount, quote.currency)}</span>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          {quoteError ? <p className="checkout-quote-error" role="status">{quoteError}</p> : null}
          <FormError message={error} />
          <Button type="submit" variant="primary" disabled={busy || !price}>
            {cardChoice === 'new' && !local ? t`Enter a card` : price ? t`Pay ${amountDue}` : t`Pay`}
          </Button>
          <p className="billing-note">
            <Link to={pathFor('profile.billing')}>{t`Back to billing`}</Link>
          </p>
        </form>
      )}
    </AuthFrame>
  );
}
