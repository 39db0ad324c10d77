import { createHmac } from 'node:crypto';
import { outboundFetch, OutboundFailed, TargetRefused, type AddressRule } from '../outbound';

/**
 * One HTTP attempt of a delivery: POST the JSON body, signed, to a checked address, within the
 * timeout, without following redirects. Never throws: the result says what happened, for the
 * hook log and the retry decision.
 */

/** The JSON every delivery carries (`data`: the record as the API returns it). */
export interface DeliveryBody {
  /** The delivery id (also X-Cairn-Delivery): the same on every retry, so receivers can dedupe. */
  id: string;
  event: string;
  team_id: number;
  board_id: string | null;
  data: unknown;
  created_at: string;
}

export interface AttemptResult {
  ok: boolean;
  /** The HTTP status, or null when no answer came (refused target, network error, timeout). */
  status: number | null;
  duration_ms: number;
  /** Why it failed (null when ok). */
  error: string | null;
  /** The start of the answer's body (for the log). */
  response_body: string | null;
}

export const TIMEOUT_MS = 10_000;
/** How much of a request or answer body the log keeps. */
export const LOG_BODY_LIMIT = 4096;

/** The signature header's value: sha256=<hex HMAC-SHA256(secret, raw body)>. */
export function signature(secret: string, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/** The address rule of a delivery (the webhooks feature's, outboundRule(config, 'webhooks')) and a timeout. */
export type SendOptions = AddressRule & { timeoutMs?: number };

/** Sends a body that is already serialised (retries send the very same bytes), through the outbound client. */
export async function sendRaw(target: { url: string; secret?: string | null }, rawBody: string, headers: { event: string; deliveryId: string }, opts: SendOptions): Promise<AttemptResult> {
  const started = performance.now();
  const done = (partial: Omit<AttemptResult, 'duration_ms'>): AttemptResult => ({ ...partial, duration_ms: Math.round(performance.now() - started) });
  const requestHeaders: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'Cairn-Webhooks/1',
    'x-cairn-event': headers.event,
    'x-cairn-delivery': headers.deliveryId,
  };
  if (target.secret) requestHeaders['x-cairn-signature'] = signature(target.secret, rawBody);
  let response: Response;
  try {
    // No redirect is followed: the 3xx is the answer, logged as a failure.
    response = await outboundFetch(opts, target.url, { method: 'POST', headers: requestHeaders, body: rawBody, timeoutMs: opts.timeoutMs ?? TIMEOUT_MS, maxBytes: LOG_BODY_LIMIT, overflow: 'truncate', maxRedirects: 0 });
  } catch (error) {
    const message = error instanceof TargetRefused || error instanceof OutboundFailed ? error.message : `Connection failed: ${(error as Error).message}`;
    return done({ ok: false, status: null, error: message, response_body: null });
  }
  const status = response.status;
  const body = (await response.text()).slice(0, LOG_BODY_LIMIT);
  const ok = status >= 200 && status < 300;
  let error: string | null = null;
  const location = response.headers.get('location');
  if (status >= 300 && status < 400) error = `The target answered ${status} (a redirect${location ? ` to ${location.slice(0, 200)}` : ''}); redirects are not followed.`;
  else if (!ok) error = `The target answered ${status}.`;
  return done({ ok, status, error, response_body: body });
}

/** One synchronous attempt to a URL (automations' "test", a hook's "Send test"). */
export function deliverToUrl(target: { url: string; secret?: string | null }, body: DeliveryBody, opts: SendOptions): Promise<AttemptResult> {
  return sendRaw(target, JSON.stringify(body), { event: body.event, deliveryId: body.id }, opts);
}
