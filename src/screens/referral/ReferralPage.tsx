import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Messages } from '../../../schema/messages';
import { ApiRequestError } from '../../api/client';
import { translateMessage } from '../../i18n/server-messages';
import { OnlineOnly } from '../../connectivity/OnlineOnly';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../ui/toast-store';
import { isEmail, splitEmails } from '../../ui/validators';
import { Page } from '../Page';
import { SubmitButton, useAction } from '../forms';
import { FormError } from '../auth/AuthFrame';
import { ReferralApi, type ReferralView } from './referral-api';
import './referral.css';

/**
 * /profile/referral (workspace.md §7 "Referral", decision 0260): the user's link with a copy
 * button, invitations by mail (addresses separated by commas, spaces or new lines), and what the
 * programme earned: 20 % of every invoice paid by the people who signed up through the link.
 */
export default function ReferralPage() {
  const { t, i18n } = useLingui();
  const [view, setView] = useState<ReferralView | null>(null);
  const [failed, setFailed] = useState(false);
  const [emails, setEmails] = useState('');
  const [inviteError, setInviteError] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setView(await ReferralApi.get());
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const copy = async () => {
    if (!view) return;
    try {
      await navigator.clipboard.writeText(view.link);
      toast.show(t`Link copied.`, { kind: 'success', id: 'referral-copy' });
    } catch {
      // No clipboard (an insecure origin, a denied permission): select the text for a manual copy.
      (document.getElementById('referral-link') as HTMLInputElement | null)?.select();
    }
  };

  const [invite, inviting] = useAction(
    async () => {
      setInviteError(null);
      const list = splitEmails(emails.replace(/;/g, ' '));
      if (list.length === 0 || !list.every(isEmail)) {
        setInviteError(t`Enter emails separated by commas, spaces or new lines.`);
        return;
      }
      const answer = await ReferralApi.invite(emails);
      setEmails('');
      if (answer.sent.length > 0) toast.show(t`Invitations sent: ${answer.sent.length}.`, { kind: 'success' });
      const skipped = answer.skipped.map((s) => s.email);
      if (skipped.length > 0) setInviteError(t`Not invited (already have an account, your own address, invited in the last week, or your daily limit reached): ${skipped.join(', ')}`);
      await load();
    },
    {
      onError: (err) => {
        if (err instanceof ApiRequestError && (err.status === 422 || err.status === 429)) {
          const message = err.body?.message ?? '';
          setInviteError(message.includes(Messages.referralEmailsInvalid) ? t`Enter emails separated by commas, spaces or new lines.` : translateMessage(message));
          return true;
        }
        return false;
      },
    },
  );
  const [saveCode, savingCode] = useAction(
    async () => {
      setCodeError(null);
      const wanted = code.trim().toLowerCase();
      if (!/^[a-z0-9][a-z0-9-]{2,30}[a-z0-9]$/.test(wanted)) {
        setCodeError(t`Use 4 to 32 letters, digits or dashes (not at either end).`);
        return;
      }
      setView(await ReferralApi.setCode(wanted));
      setCode('');
      toast.show(t`Your link changed. Links with the old code no longer count.`, { kind: 'success' });
    },
    {
      onError: (err) => {
        if (err instanceof ApiRequestError && err.status === 422) {
          setCodeError(translateMessage(err.body?.message ?? ''));
          return true;
        }
        return false;
      },
    },
  );
  const onCode = (event: FormEvent) => {
    event.preventDefault();
    void saveCode();
  };
  const onInvite = (event: FormEvent) => {
    event.preventDefault();
    void invite();
  };

  if (failed && !view) {
    return (
      <Page>
        <EmptyState title={<Trans>Failed loading data</Trans>} action={<Button onClick={() => void load()}>{t`Try again`}</Button>} />
      </Page>
    );
  }
  if (!view) {
    return (
      <Page>
        <Spinner />
      </Page>
    );
  }

  const money = (amount: number, currency: string) => new Intl.NumberFormat(i18n.locale, { style: 'currency', currency }).format(amount / 100);
  const date = (iso: string) => new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'medium' }).format(new Date(iso));
  const percent = new Intl.NumberFormat(i18n.locale, { style: 'percent' }).format(view.rate);

  const heldAmounts = view.held.map((e) => money(e.amount, e.currency)).join(', ');
  return (
    <Page>
      <p className="referral-intro">
        <Trans>Invite people to Cairn: you earn {percent} of every purchase made by those who sign up through your link.</Trans>
      </p>

      <section aria-labelledby="referral-link-heading" className="referral-section">
        <h2 id="referral-link-heading">
          <Trans>Your link</Trans>
        </h2>
        <div className="referral-link">
          <label htmlFor="referral-link" className="visually-hidden">
            <Trans>Your referral link</Trans>
          </label>
          <input id="referral-link" type="text" readOnly value={view.link} onFocus={(e) => e.currentTarget.select()} />
          <Button variant="primary" onClick={() => void copy()}>
            <Trans>Copy link</Trans>
          </Button>
        </div>
        <p className="referral-note">
          <Trans>People who signed up through your link: {view.signups}</Trans>
        </p>
        <OnlineOnly>
          <form className="form form-inline" onSubmit={onCode} noValidate>
            <div className="field">
              <label htmlFor="referral-code">
                <Trans>Choose your code</Trans>
              </label>
              <input id="referral-code" name="code" type="text" value={code} placeholder={view.code} maxLength={32} onChange={(e) => setCode(e.target.value)} />
            </div>
            <FormError message={codeError} />
            <SubmitButton busy={savingCode}>
              <Trans>Save code</Trans>
            </SubmitButton>
          </form>
        </OnlineOnly>
      </section>

      <section aria-labelledby="referral-invite-heading" className="referral-section">
        <OnlineOnly>
          <form className="form" onSubmit={onInvite} noValidate aria-labelledby="referral-invite-heading">
            <h2 id="referral-invite-heading">
              <Trans>Invite by email</Trans>
            </h2>
            <div className="field">
              <label htmlFor="referral-emails">
                <Trans>Emails</Trans>
              </label>
              <textarea id="referral-emails" name="emails" rows={3} value={emails} aria-describedby="referral-emails-hint" onChange={(e) => setEmails(e.target.value)} />
              <p id="referral-emails-hint" className="referral-note">
                <Trans>Enter emails separated by commas, spaces or new lines.</Trans>
              </p>
            </div>
            <FormError message={inviteError} />
            <SubmitButton busy={inviting}>
              <Trans>Send invitations</Trans>
            </SubmitButton>
          </form>
        </OnlineOnly>
        {view.invitations.length > 0 && (
          <table className="referral-table">
            <caption>
              <Trans>Invitations</Trans>
            </caption>
            <thead>
              <tr>
                <th scope="col">{t`Email`}</th>
                <th scope="col">{t`Sent`}</th>
                <th scope="col">{t`Status`}</th>
              </tr>
            </thead>
            <tbody>
              {view.invitations.map((i) => (
                <tr key={i.email}>
                  <td>{i.email}</td>
                  <td>{date(i.sent_at)}</td>
                  <td>{i.joined ? t`Signed up` : t`Invited`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section aria-labelledby="referral-earnings-heading" className="referral-section">
        <h2 id="referral-earnings-heading">
          <Trans>Earnings</Trans>
        </h2>
        {view.held.length > 0 && (
          <p className="referral-note" data-testid="referral-held">
            <Trans>Held until the invoices are past their 14-day refund window: {heldAmounts}</Trans>
          </p>
        )}
        {view.earnings.length === 0 ? (
          <p className="referral-note">
            <Trans>No earnings yet. They appear here when someone who signed up through your link pays an invoice.</Trans>
          </p>
        ) : (
          <>
            <ul className="referral-totals">
              {view.earnings.map((e) => (
                <li key={e.currency} data-currency={e.currency}>
                  {money(e.amount, e.currency)}
                </li>
              ))}
            </ul>
            <table className="referral-table">
              <caption>
                <Trans>Credits</Trans>
              </caption>
              <thead>
                <tr>
                  <th scope="col">{t`Date`}</th>
                  <th scope="col">{t`Invoice`}</th>
                  <th scope="col">{t`Your share`}</th>
                </tr>
              </thead>
              <tbody>
                {view.credits.map((c) => (
                  <tr key={c.invoice_id}>
                    <td>{date(c.created_at)}</td>
                    <td>{money(c.invoice_amount, c.currency)}</td>
                    <td>{money(c.amount, c.currency)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </section>
    </Page>
  );
}
