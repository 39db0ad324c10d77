import { useId } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { CardInput } from './payments-api';

export interface CardDraft {
  number: string;
  expiry: string;
  cvc: string;
}

export const EMPTY_CARD: CardDraft = { number: '', expiry: '', cvc: '' };

/** "12/29", "12 / 2029" → month and year; null when it is not one. */
export function parseExpiry(text: string): { exp_month: number; exp_year: number } | null {
  const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(text);
  if (!m) return null;
  const month = Number(m[1]);
  const year = m[2]!.length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
  return month >= 1 && month <= 12 ? { exp_month: month, exp_year: year } : null;
}

/** The card a draft describes, or the name of the first field that is not right. */
export function cardOf(draft: CardDraft): CardInput | { invalid: 'number' | 'expiry' | 'cvc' } {
  const digits = draft.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits)) return { invalid: 'number' };
  const expiry = parseExpiry(draft.expiry);
  if (!expiry) return { invalid: 'expiry' };
  if (!/^\d{3,4}$/.test(draft.cvc.trim())) return { invalid: 'cvc' };
  return { number: digits, ...expiry, cvc: draft.cvc.trim() };
}

/**
 * The card form of the local payment provider (decision 0250): number, expiry and security code.
 * The server keeps the brand, the last four digits and the expiry only. With the local provider
 * the form names its test cards.
 */
export function CardForm({ value, onChange, invalid, local }: { value: CardDraft; onChange: (next: CardDraft) => void; invalid?: 'number' | 'expiry' | 'cvc' | null; local: boolean }) {
  const { t } = useLingui();
  const id = useId();
  const set = (patch: Partial<CardDraft>) => onChange({ ...value, ...patch });
  return (
    <fieldset className="card-form">
      <legend>{t`Card`}</legend>
      <div className="field">
        <label htmlFor={`${id}-number`}>{t`Card number`}</label>
        <input
          id={`${id}-number`}
          name="cardnumber"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="4242 4242 4242 4242"
          dir="ltr"
          value={value.number}
          aria-invalid={invalid === 'number' || undefined}
          onChange={(e) => set({ number: e.target.value })}
        />
      </div>
      <div className="card-form__row">
        <div className="field">
          <label htmlFor={`${id}-expiry`}>{t`Expiry (MM/YY)`}</label>
          <input id={`${id}-expiry`} name="exp-date" inputMode="numeric" autoComplete="cc-exp" placeholder="12/30" dir="ltr" value={value.expiry} aria-invalid={invalid === 'expiry' || undefined} onChange={(e) => set({ expiry: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-cvc`}>{t`Security code`}</label>
          <input id={`${id}-cvc`} name="cvc" inputMode="numeric" autoComplete="cc-csc" placeholder="123" dir="ltr" maxLength={4} value={value.cvc} aria-invalid={invalid === 'cvc' || undefined} onChange={(e) => set({ cvc: e.target.value })} />
        </div>
      </div>
      {local ? (
        <p className="card-form__hint">{t`Test mode: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined, 4000 0000 0000 9995 has insufficient funds. Any future expiry and any three digits.`}</p>
      ) : null}
    </fieldset>
  );
}
