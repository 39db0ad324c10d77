import { useCallback, useEffect, useId, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Button } from '../../ui/Button';
import { BusyButton } from '../../ui/BusyButton';
import { Modal } from '../../ui/Modal';
import { toast } from '../../ui/toast-store';
import type { BillingSubscription } from './billing-api';
import { ExtrasApi, type CancelReason, type CancellationInfo, type RetentionOffer } from './extras-api';
import { showRefusal } from './billing-messages';
import './billing-extras.css';

/**
 * The cancel flow of /profile/billing (workspace.md §4, §5, §9; issue #18, decision 0255): reasons
 * (at least one), then the retention offers the subscription can take (once per user: 30 more trial
 * days on a trial; a free month or 20 % off the next year on a paid plan) or cancel anyway. A
 * cancelled plan runs to its end date, then is read-only; before that it can be kept. The 14-day
 * money-back guarantee is stated.
 */
export function CancelSubscription({ sub, onChanged }: { sub: BillingSubscription; onChanged: () => Promise<void> | void }) {
  const { t, i18n } = useLingui();
  const [info, setInfo] = useState<CancellationInfo | null>(null);
  const [open, setOpen] = useState(false);
  const [step, setStep] = useState<'reasons' | 'offers'>('reasons');
  const [reasons, setReasons] = useState<CancelReason[]>([]);
  const [comment, setComment] = useState('');
  const [reasonError, setReasonError] = useState(false);
  const errorId = useId();
  const commentId = useId();

  const load = useCallback(async () => {
    try {
      setInfo(await ExtrasApi.cancellation(sub.id));
    } catch {
      setInfo(null);
    }
  }, [sub.id]);
  useEffect(() => {
    void load();
  }, [load, sub.state, sub.ends_at, sub.trial_ends_at]);

  if (!info) return null;
  const date = (iso: string | null) => (iso ? new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'long' }).format(new Date(iso)) : '');
  const reasonLabels: Record<CancelReason, string> = {
    too_expensive: t`It is too expensive`,
    missing_features: t`Features I need are missing`,
    not_using: t`I do not use it enough`,
    switching: t`I am switching to another product`,
    technical_issues: t`Technical problems`,
    other: t`Another reason`,
  };
  const offerText: Record<RetentionOffer, { title: string; text: string }> = {
    trial_days: { title: t`30 more trial days`, text: t`Keep every feature for another 30 days, free.` },
    free_month: { title: t`One month free`, text: t`Stay, and your next month is on us.` },
    year_discount: { title: t`20 % off the next year`, text: t`Stay, and your next year costs 20 % less.` },
  };

  const close = () => {
    setOpen(false);
    setStep('reasons');
    setReasonError(false);
  };
  const next = () => {
    if (reasons.length === 0) {
      setReasonError(true);
      return;
    }
    setReasonError(false);
    setStep('offers');
  };
  const cancelAnyway = async () => {
    try {
      const updated = await ExtrasApi.cancel(sub.id, reasons, comment);
      toast.show(updated.state === 'cancelled' ? t`Cancelled. Your plan runs until ${date(updated.ends_at)}, then your workspaces are read-only.` : t`Cancelled. Your trial runs to its end.`);
      close();
      await load();
      await onChanged();
    } catch (error) {
      showRefusal(error);
    }
  };
  const take = async (offer: RetentionOffer) => {
    try {
      await ExtrasApi.takeOffer(sub.id, offer);
      toast.show(t`Thank you for staying. The offer is applied.`, { kind: 'success' });
      close();
      await load();
      await onChanged();
    } catch (error) {
      showRefusal(error);
    }
  };
  const resume = async () => {
    try {
      await ExtrasApi.resume(sub.id);
      toast.show(t`Your subscription continues.`, { kind: 'success' });
      await load();
      await onChanged();
    } catch (error) {
      showRefusal(error);
    }
  };

  const couponText = info.coupon
    ? info.coupon.offer === 'trial_days'
      ? t`Offer taken: 30 more trial days.`
      : info.coupon.offer === 'free_month'
        ? t`Offer taken: your next month is free.`
        : t`Offer taken: 20 % off your next year.`
    : null;

  return (
    <section aria-labelledby="billing-cancel" className="billing-cancel" data-testid="billing-cancel">
      <h2 id="billing-cancel">{t`Cancel subscription`}</h2>
      {couponText ? <p>{couponText}</p> : null}
      {info.cancellation ? (
        <>
          <p>{sub.state === 'cancelled' ? t`You cancelled on ${date(info.cancellation.cancelled_at)}. Your plan runs until ${date(info.cancellation.ends_at)}, then your workspaces are read-only.` : t`You cancelled on ${date(info.cancellation.cancelled_at)}. Your trial runs to its end.`}</p>
          <BusyButton onClick={resume}>{t`Keep my subscription`}</BusyButton>
        </>
      ) : info.can_cancel ? (
        <>
          {sub.state !== 'trial' ? <p className="billing-note">{t`Money-back guarantee: within ${info.money_back_days} days of paying, ask us and you get your money back.`}</p> : null}
          <Button variant="danger" onClick={() => setOpen(true)}>{t`Cancel subscription`}</Button>
        </>
      ) : (
        <p className="billing-note">{t`This subscription has nothing to cancel.`}</p>
      )}
      <Modal
        open={open}
        onClose={close}
        title={step === 'reasons' ? t`Why are you leaving?` : t`Before you go`}
        footer={
          step === 'reasons' ? (
            <>
              <Button onClick={close}>{t`Keep my subscription`}</Button>
              <Button variant="primary" onClick={next}>{t`Continue`}</Button>
            </>
          ) : (
            <>
              <Button onClick={() => setStep('reasons')}>{t`Back`}</Button>
              <BusyButton variant="danger" onClick={cancelAnyway}>{t`Cancel anyway`}</BusyButton>
            </>
          )
        }
      >
        {step === 'reasons' ? (
          <fieldset className="billing-reasons" aria-describedby={reasonError ? errorId : undefined} aria-invalid={reasonError || undefined}>
            <legend>{t`Select at least one reason for leaving.`}</legend>
            {(Object.keys(reasonLabels) as CancelReason[]).map((reason) => (
              <label key={reason} className="billing-reasons__option">
                <input
                  type="checkbox"
                  value={reason}
                  checked={reasons.includes(reason)}
                  onChange={(e) => {
                    setReasons((list) => (e.target.checked ? [...list, reason] : list.filter((r) => r !== reason)));
                    setReasonError(false);
                  }}
                />{' '}
                {reasonLabels[reason]}
              </label>
            ))}
            {reasonError ? (
              <p className="form-error" role="alert" id={errorId}>
                {t`Select at least one reason for leaving.`}
              </p>
            ) : null}
            <label htmlFor={commentId}>{t`Anything else we should know? (optional)`}</label>
            <textarea id={commentId} value={comment} maxLength={2000} rows={3} onChange={(e) => setComment(e.target.value)} />
          </fieldset>
        ) : (
          <div className="billing-offers">
            {info.offers.length > 0 ? (
              <ul>
                {info.offers.map((offer) => (
                  <li key={offer} data-offer={offer}>
                    <strong>{offerText[offer].title}</strong>
                    <p>{offerText[offer].text}</p>
                    <BusyButton variant="primary" onClick={() => take(offer)}>{t`Take this offer`}</BusyButton>
                  </li>
                ))}
              </ul>
            ) : null}
            <p>
              {sub.state === 'trial'
                ? t`If you cancel, your trial runs to its end on ${date(sub.trial_ends_at)}, then your workspaces are read-only until you buy a plan.`
                : t`If you cancel, your plan runs to the end of the period you paid for, then your workspaces are read-only.`}
            </p>
            {sub.state !== 'trial' ? <p className="billing-note">{t`Money-back guarantee: within ${info.money_back_days} days of paying, ask us and you get your money back.`}</p> : null}
          </div>
        )}
      </Modal>
    </section>
  );
}
