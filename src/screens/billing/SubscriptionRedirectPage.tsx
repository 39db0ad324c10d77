import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import { Page } from '../Page';
import { PaymentsApi, formatMoney, type Invoice } from './payments-api';
import './payments.css';

/** workspace.md §9: "Redirect after 5 seconds in one flow". */
export const REDIRECT_SECONDS = 5;

/**
 * `subscription.redirect` (/subscription/redirect?invoice=; issue #18, decision 0250): after a
 * payment, thanks the buyer, names the paid invoice and goes to the billing page after 5 seconds
 * (a link goes at once).
 */
export default function SubscriptionRedirectPage() {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const search = useSearch({ strict: false }) as { invoice?: string | number };
  const [seconds, setSeconds] = useState(REDIRECT_SECONDS);
  const [invoice, setInvoice] = useState<Invoice | null>(null);
  const billing = pathFor('profile.billing');

  useEffect(() => {
    let live = true;
    const id = Number(search.invoice);
    if (id) void PaymentsApi.invoices().then((list) => live && setInvoice(list.find((i) => i.id === id) ?? null), () => undefined);
    return () => {
      live = false;
    };
  }, [search.invoice]);

  useEffect(() => {
    if (seconds <= 0) {
      void navigate({ to: billing });
      return;
    }
    const timer = window.setTimeout(() => setSeconds((s) => s - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [seconds, navigate, billing]);

  const number = invoice?.number ?? '';
  const total = invoice ? formatMoney(i18n.locale, invoice.total, invoice.currency) : '';
  return (
    <Page narrow title={t`Thank you!`}>
      <div className="subscription-redirect" role="status">
        <p>{t`Your payment went through and your plan is active.`}</p>
        {invoice?.number ? <p>{t`Invoice ${number}: ${total} paid.`}</p> : null}
        <p>{plural(seconds, { one: 'You will be taken to your billing page in # second.', other: 'You will be taken to your billing page in # seconds.' })}</p>
        <Link to={billing}>{t`Go to billing now`}</Link>
      </div>
    </Page>
  );
}
