import { useEffect, useRef } from 'react';
import { msg } from '@lingui/core/macro';
import type { I18n } from '@lingui/core';
import { Messages } from '../../../schema/messages';
import { api, ApiRequestError } from '../../api/client';
import type { PaymentMethod } from './payments-api';
import type { CardSetupStart } from '../../../schema/payments';

/**
 * Card entry on the payment provider's own page (decision 0300): with Stripe the card is typed on
 * Stripe Checkout (setup mode), never in our page nor sent to our server. Start: the server makes a
 * session and the browser goes to its `url`. Stripe sends the browser back to the page it left with
 * `card_setup={session id}` (or `card_setup=cancelled`); the page asks the server to finish, which
 * stores the card (brand, last four digits, expiry) and answers it.
 */
export const CardSetupApi = {
  start: async (returnTo: string) => (await api.post<{ data: CardSetupStart }>('/api/payment/card-setup', { return_to: returnTo })).data,
  finish: async (sessionId: string) => (await api.post<{ data: PaymentMethod }>('/api/payment/card-setup/finish', { session_id: sessionId })).data,
};

/** Starts entering a card on the provider's page and leaves for it; `returnTo` is the path to come back to. */
export async function goToCardSetup(returnTo: string): Promise<void> {
  const { url } = await CardSetupApi.start(returnTo);
  window.location.assign(url);
}

/** The server's card-setup refusals in the user's language. */
export function cardSetupRefusal(error: unknown, i18n: I18n): string | null {
  if (!(error instanceof ApiRequestError)) return null;
  if (error.body?.message === Messages.cardSetupIncomplete) return i18n._(msg`The card was not entered on the payment page.`);
  if (error.status === 404) return i18n._(msg`This card entry is not yours or has expired. Add the card again.`);
  return null;
}

export type CardSetupReturn = { kind: 'saved'; method: PaymentMethod } | { kind: 'cancelled' } | { kind: 'failed'; error: unknown };

/**
 * On a page Stripe sent the browser back to: takes `card_setup` out of the address, finishes the
 * session and reports once what happened (the card saved, cancelled, or the refusal). `ready`:
 * the user is signed in.
 */
export function useCardSetupReturn(ready: boolean, onResult: (result: CardSetupReturn) => void): void {
  const report = useRef(onResult);
  report.current = onResult;
  useEffect(() => {
    // After the full page load back from Stripe the session is restored first (the call needs it).
    if (!ready) return;
    const url = new URL(window.location.href);
    const answer = url.searchParams.get('card_setup');
    if (!answer) return;
    url.searchParams.delete('card_setup');
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
    if (answer === 'cancelled') {
      report.current({ kind: 'cancelled' });
      return;
    }
    CardSetupApi.finish(answer).then(
      (method) => report.current({ kind: 'saved', method }),
      (error: unknown) => report.current({ kind: 'failed', error }),
    );
  }, [ready]);
}
