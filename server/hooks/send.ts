import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { guardedLookup, parseTargetUrl, resolveTarget, TargetRefused, type Resolver } from './targets';

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

/** Keep-alive agents for the real resolver (a reused socket is one connected to a checked address). */
const agents = new Map<string, http.Agent>();
function agentFor(protocol: string, allowPrivate: boolean): http.Agent {
  const key = `${protocol}${allowPrivate}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = { keepAlive: true, maxSockets: 64, timeout: TIMEOUT_MS };
    agent = protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    agents.set(key, agent);
  }
  return agent;
}

export interface SendOptions {
  allowPrivate: boolean;
  /** A resolver to use instead of the system's (tests). */
  resolve?: Resolver;
  timeoutMs?: number;
}

/** Sends a body that is already serialised (retries send the very same bytes). */
export async function sendRaw(target: { url: string; secret?: string | null }, rawBody: string, headers: { event: string; deliveryId: string }, opts: SendOptions): Promise<AttemptResult> {
  const started = performance.now();
  const done = (partial: Omit<AttemptResult, 'duration_ms'>): AttemptResult => ({ ...partial, duration_ms: Math.round(performance.now() - started) });
  let url: URL;
  try {
    url = parseTargetUrl(target.url);
    // IP literals never reach `lookup`: check them here.
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (!/[a-z]/i.test(host) || host.includes(':')) await resolveTarget(host, opts);
  } catch (error) {
    return done({ ok: false, status: null, error: (error as Error).message, response_body: null });
  }
  const requestHeaders: Record<string, string | number> = {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(rawBody),
    'user-agent': 'Cairn-Webhooks/1',
    'x-cairn-event': headers.event,
    'x-cairn-delivery': headers.deliveryId,
  };
  if (target.secret) requestHeaders['x-cairn-signature'] = signature(target.secret, rawBody);
  const timeoutMs = opts.timeoutMs ?? TIMEOUT_MS;
  const client = url.protocol === 'https:' ? https : http;

  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<AttemptResult, 'duration_ms'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(result));
    };
    const request = client.request(url, {
      method: 'POST',
      headers: requestHeaders,
      lookup: guardedLookup(opts) as never,
      agent: opts.resolve ? false : agentFor(url.protocol, opts.allowPrivate),
    });
    const timer = setTimeout(() => {
      request.destroy();
      finish({ ok: false, status: null, error: `No answer within ${Math.round(timeoutMs / 1000)} s (timeout).`, response_body: null });
    }, timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => {
      const message = error instanceof TargetRefused || error.code === 'ETARGETREFUSED' ? error.message : `Connection failed: ${error.code ?? error.message}`;
      finish({ ok: false, status: null, error: message, response_body: null });
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        if (size < LOG_BODY_LIMIT) chunks.push(chunk);
        size += chunk.length;
      });
      response.on('error', () => {});
      response.on('end', () => {
        const status = response.statusCode ?? 0;
        const body = Buffer.concat(chunks).toString('utf8').slice(0, LOG_BODY_LIMIT);
        const ok = status >= 200 && status < 300;
        let error: string | null = null;
        if (status >= 300 && status < 400) error = `The target answered ${status} (a redirect${response.headers.location ? ` to ${String(response.headers.location).slice(0, 200)}` : ''}); redirects are not followed.`;
        else if (!ok) error = `The target answered ${status}.`;
        finish({ ok, status, error, response_body: body });
      });
    });
    request.end(rawBody);
  });
}

/** One synchronous attempt to a URL (automations' "test", a hook's "Send test"). */
export function deliverToUrl(target: { url: string; secret?: string | null }, body: DeliveryBody, opts: SendOptions): Promise<AttemptResult> {
  return sendRaw(target, JSON.stringify(body), { event: body.event, deliveryId: body.id }, opts);
}
