import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import { showApiError } from '../../api/handle-error';
import { appVars } from '../../app-vars';
import { BusyButton } from '../../ui/BusyButton';
import { Button } from '../../ui/Button';
import { confirm } from '../../ui/confirm-store';
import { toast } from '../../ui/toast-store';
import { FormError } from '../auth/AuthFrame';
import type { BillingSubscription } from './billing-api';
import { PaymentsApi, downloadInvoicePdf, formatMoney, lineText, refusalOfMessage, refusalText, type Invoice, type NextInvoice, type PaymentMethod } from './payments-api';
import { CardForm, EMPTY_CARD, cardOf, type CardDraft } from './CardForm';
import { cardSetupRefusal, goToCardSetup, useCardSetupReturn } from './card-setup';
import './payments.css';

/**
 * The payment parts of /profile/billing (issue #18, decision 0250): buy or change the plan
 * (checkout, subscription.upgrade), the next invoice, the invoices with their PDFs, and the saved
 * cards (add with the provider's card form, remove).
 */
export function PaymentsSections({ sub }: { sub: BillingSubscription | undefined }) {
  const { t, i18n } = useLingui();
  const [invoices, setInvoices] = useState<Invoice[] | null>(null);
  const [methods, setMethods] = useState<PaymentMethod[] | null>(null);
  const [next, setNext] = useState<NextInvoice | null>(null);
  const [adding, setAdding] = useState(false);
  const [card, setCard] = useState<CardDraft>(EMPTY_CARD);
  const [invalid, setInvalid] = useState<'number' | 'expiry' | 'cvc' | null>(null);
  const [cardError, setCardError] = useState<string | null>(null);
  const local = (appVars.get().paymentProviderKey ?? 'local') === 'local';

  // Loads can overlap (the first one, and the one after a card came back from the provider's page):
  // only the latest one's answer is shown, so an older list never hides the card just saved.
  const latestLoad = useRef(0);
  const load = useCallback(async () => {
    const mine = ++latestLoad.current;
    try {
      const [i, m, n] = await Promise.all([PaymentsApi.invoices(), PaymentsApi.methods(), PaymentsApi.next()]);
      if (mine !== latestLoad.current) return;
      setInvoices(i);
      setMethods(m);
      setNext(n);
    } catch (error) {
      showApiError(error);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load, sub?.deal, sub?.state]);

  // Back from the provider's card page (Stripe, decision 0300).
  useCardSetupReturn(true, (result) => {
    if (result.kind === 'saved') {
      toast.show(t`The card was saved.`);
      void load();
    } else if (result.kind === 'failed') {
      const known = cardSetupRefusal(result.error, i18n) ?? refusalText(result.error, i18n);
      if (known) toast.show(known, { kind: 'error' });
      else showApiError(result.error);
    }
  });

  const date = (iso: string | null | undefined) => (iso ? new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'long' }).format(new Date(iso)) : '');
  const money = (minor: number, currency: string) => formatMoney(i18n.locale, minor, currency);
  const lifetime = Boolean(sub?.plan && sub.plan.prices.length > 0 && sub.plan.prices.every((p) => p.interval === 'lifetime') && sub.state === 'active');
  const nextAmount = next ? money(next.amount, next.currency) : '';
  const nextDate = next ? date(next.date) : '';
  const paidPlan = Boolean(sub?.plan?.prices.some((p) => p.amount > 0)) && (sub?.state === 'active' || sub?.state === 'cancelled');

  const addCard = async (event: FormEvent) => {
    event.preventDefault();
    setCardError(null);
    setInvalid(null);
    const parsed = cardOf(card);
    if ('invalid' in parsed) {
      setInvalid(parsed.invalid);
      setCardError(parsed.invalid === 'number' ? t`Enter the card number.` : parsed.invalid === 'expiry' ? t`Enter the expiry as MM/YY.` : t`Enter the card’s 3 or 4 digit security code.`);
      return;
    }
    try {
      await PaymentsApi.addCard(parsed);
      setCard(EMPTY_CARD);
      setAdding(false);
      toast.show(t`The card was saved.`);
      await load();
    } catch (error) {
      const known = refusalText(error, i18n);
      if (known) setCardError(known);
      else showApiError(error);
    }
  };

  const remove = async (method: PaymentMethod) => {
    const brand = method.brand.toUpperCase();
    const last4 = method.last4;
    if (!(await confirm({ message: t`Remove the card ${brand} ending in ${last4}?`, danger: true, confirmLabel: t`Remove` }))) return;
    try {
      await PaymentsApi.removeMethod(method.id);
      await load();
    } catch (error) {
      showApiError(error);
    }
  };

  const download = async (invoice: Invoice) => {
    try {
      await downloadInvoicePdf(invoice);
    } catch (error) {
      showApiError(error);
    }
  };

  const pdfLabel = (invoice: Invoice) => {
    const number = invoice.number ?? '';
    return t`Download invoice ${number} as PDF`;
  };

  const status = (invoice: Invoice) => (invoice.status === 'paid' ? t`Paid` : invoice.status === 'refunded' ? t`Refunded` : invoice.status === 'failed' ? t`Payment failed` : t`Open`);

  return (
    <>
      {sub && !lifetime ? (
        <section aria-labelledby="billing-buy" className="billing-buy">
          <h2 id="billing-buy">{paidPlan ? t`Change your plan` : t`Buy a plan`}</h2>
          <p>
            {paidPlan || sub.state === 'trial' || sub.state === 'trial_expired' ? (
              <Link className="ui-button ui-button--primary ui-button--md" to={pathFor('subscription.upgrade', { subscriptionId: sub.id })}>
                {paidPlan ? t`Change plan` : t`Buy a plan`}
              </Link>
            ) : (
              <Link className="ui-button ui-button--primary ui-button--md" to={`${pathFor('checkout')}?subscription=${sub.id}`}>
                {t`Buy a plan`}
              </Link>
            )}
          </p>
        </section>
      ) : null}

      {next ? (
        <section aria-labelledby="billing-next" className="billing-next">
          <h2 id="billing-next">{t`Next invoice`}</h2>
          <p>{t`${nextAmount} on ${nextDate}`}</p>
          <ul className="invoice-lines">
            {next.lines.map((line, index) => (
              <li key={index}>
                <span>{lineText(line, i18n, date)}</span>
                <span className="invoice-amount">{money(line.amount, next.currency)}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="billing-invoices" className="billing-invoices">
        <h2 id="billing-invoices">{t`Invoices`}</h2>
        {invoices === null ? null : invoices.length === 0 ? (
          <p className="billing-note">{t`No invoices yet.`}</p>
        ) : (
          <table className="invoices-table">
            <thead>
              <tr>
                <th scope="col">{t`Number`}</th>
                <th scope="col">{t`Date`}</th>
                <th scope="col">{t`Description`}</th>
                <th scope="col">{t`Total`}</th>
                <th scope="col">{t`Status`}</th>
                <th scope="col">
                  <span className="visually-hidden">{t`Download`}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {invoices.map((invoice) => (
                <tr key={invoice.id} data-invoice={invoice.number ?? invoice.id} data-status={invoice.status}>
                  <td>{invoice.number ?? '—'}</td>
                  <td>{date(invoice.paid_at ?? invoice.created_at)}</td>
                  <td>{invoice.lines.map((line) => lineText(line, i18n, date)).join('; ')}</td>
                  <td className="invoice-amount">{money(invoice.total, invoice.currency)}</td>
                  <td>
                    {status(invoice)}
                    {invoice.failure ? <span className="invoice-failure">{' — '}{refusalOfMessage(invoice.failure.message, i18n) ?? invoice.failure.message}</span> : null}
                  </td>
                  <td>
                    {invoice.pdf_url ? (
                      <BusyButton size="sm" onClick={() => download(invoice)} aria-label={pdfLabel(invoice)}>
                        {t`PDF`}
                      </BusyButton>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section aria-labelledby="billing-methods" className="billing-methods">
        <h2 id="billing-methods">{t`Payment methods`}</h2>
        {methods && methods.length > 0 ? (
          <ul className="payment-methods">
            {methods.map((m) => {
              const brand = m.brand.toUpperCase();
              const last4 = m.last4;
              const expiry = `${String(m.exp_month).padStart(2, '0')}/${m.exp_year}`;
              return (
                <li key={m.id} data-card={m.last4}>
                  <span>{t`${brand} ending in ${last4}, expires ${expiry}`}</span>
                  <Button size="sm" variant="ghost" onClick={() => void remove(m)}>
                    {t`Remove`}
                  </Button>
                </li>
              );
            })}
          </ul>
        ) : methods ? (
          <p className="billing-note">{t`No saved cards.`}</p>
        ) : null}
        {adding ? (
          <form className="form payment-add" onSubmit={addCard} noValidate>
            <CardForm value={card} onChange={setCard} invalid={invalid} local={local} />
            <FormError message={cardError} />
            <div className="payment-add__actions">
              <Button type="submit" variant="primary">
                {t`Save card`}
              </Button>
              <Button onClick={() => setAdding(false)}>{t`Cancel`}</Button>
            </div>
          </form>
        ) : local ? (
          <Button onClick={() => setAdding(true)}>{t`Add a card`}</Button>
        ) : (
          <BusyButton onClick={() => goToCardSetup(pathFor('profile.billing')).catch(showApiError)}>{t`Add a card on Stripe’s secure page`}</BusyButton>
        )}
      </section>
    </>
  );
}
