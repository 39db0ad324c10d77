import http from 'node:http';
import https from 'node:https';
import type dns from 'node:dns';
import { bareHost, parseRuleUrl, resolveChecked, TargetRefused, type AddressRule } from './address';

/**
 * The one outbound HTTP client (issue #26 part 4, decision 0355). Every hop: parse (http/https,
 * no credentials), resolve the host once and check every address (address.ts), then connect the
 * socket to that checked address: the request's `lookup` answers with it, so no second DNS lookup
 * happens between check and connect (DNS rebinding). Redirects are followed by hand, each hop
 * checked again, at most `maxRedirects` (0 = the 3xx is the answer); a redirect to another origin
 * drops the credentials headers. One deadline covers every hop and the body; a body over
 * `maxBytes` fails (or is cut, for logs). Answers a fetch `Response` so callers read it as before.
 */

export class OutboundFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundFailed';
  }
}

export interface OutboundRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** One deadline for every hop and the answer's body (default 10 s). */
  timeoutMs?: number;
  /** Largest answer body (default 5 MB). */
  maxBytes?: number;
  /** What a larger body does: fail (default) or keep its first maxBytes (delivery logs). */
  overflow?: 'fail' | 'truncate';
  /** Redirects followed, each hop checked (default 0: a 3xx is the answer). */
  maxRedirects?: number;
  signal?: AbortSignal;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
/** The cap on `maxRedirects` whatever a caller asks. */
export const REDIRECT_CAP = 5;

/** Headers that carry a credential: never sent on to another origin. */
const CREDENTIAL_HEADERS = ['authorization', 'private-token', 'cookie', 'proxy-authorization'];

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** A `lookup` that answers only the addresses already checked: the socket connects to one of them. */
function pinnedLookup(addresses: { address: string; family: number }[]) {
  return (_hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  };
}

interface Hop {
  status: number;
  statusText: string;
  headers: Headers;
  body: Buffer;
}

function oneHop(url: URL, addresses: { address: string; family: number }[], init: OutboundRequest, method: string, headers: Record<string, string>, body: string | Uint8Array | undefined, deadline: number, signal: AbortSignal | undefined, readBody: boolean): Promise<Hop> {
  const client = url.protocol === 'https:' ? https : http;
  const maxBytes = init.maxBytes ?? DEFAULT_MAX_BYTES;
  return new Promise<Hop>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const requestHeaders: Record<string, string | number> = { ...headers };
    if (body !== undefined) requestHeaders['content-length'] = Buffer.byteLength(body);
    const request = client.request(url, { method, headers: requestHeaders, lookup: pinnedLookup(addresses) as never, agent: false });
    const remaining = Math.max(1, deadline - Date.now());
    const timer = setTimeout(() => {
      request.destroy();
      settle(() => reject(new OutboundFailed(`No answer within ${Math.round((init.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s (timeout).`)));
    }, remaining);
    const onAbort = () => {
      request.destroy();
      settle(() => reject(new OutboundFailed('The request was cancelled.')));
    };
    signal?.addEventListener('abort', onAbort);
    request.on('error', (error: NodeJS.ErrnoException) => settle(() => reject(new OutboundFailed(`Connection failed: ${error.code ?? error.message}`))));
    request.on('response', (response) => {
      const responseHeaders = new Headers();
      for (const [name, value] of Object.entries(response.headers)) {
        if (value === undefined) continue;
        for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(name, v);
      }
      const status = response.statusCode ?? 0;
      const statusText = response.statusMessage ?? '';
      if (!readBody) {
        response.destroy();
        settle(() => resolve({ status, statusText, headers: responseHeaders, body: Buffer.alloc(0) }));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        if (settled) return;
        if (size + chunk.length > maxBytes) {
          if (init.overflow === 'truncate') {
            chunks.push(chunk.subarray(0, maxBytes - size));
            size = maxBytes;
            response.destroy();
            settle(() => resolve({ status, statusText, headers: responseHeaders, body: Buffer.concat(chunks) }));
            return;
          }
          response.destroy();
          settle(() => reject(new OutboundFailed(`The answer is larger than ${maxBytes} bytes.`)));
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      response.on('error', (error) => settle(() => reject(new OutboundFailed(`Connection failed: ${error.message}`))));
      response.on('end', () => settle(() => resolve({ status, statusText, headers: responseHeaders, body: Buffer.concat(chunks) })));
    });
    request.end(body);
  });
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Statuses a fetch Response may not carry a body with. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * Sends one request under the feature's address rule and answers its Response. Throws
 * TargetRefused (the address is not allowed: a 4xx-worthy input error) or OutboundFailed
 * (network, timeout, size, too many redirects).
 */
export async function outboundFetch(rule: AddressRule, target: string | URL, init: OutboundRequest = {}): Promise<Response> {
  const deadline = Date.now() + (init.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const maxRedirects = Math.min(init.maxRedirects ?? 0, REDIRECT_CAP);
  let url = parseRuleUrl(target, rule);
  const origin = url.origin;
  let method = (init.method ?? 'GET').toUpperCase();
  let body = init.body;
  let headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(init.headers ?? {})) headers[name.toLowerCase()] = value;
  for (let hop = 0; ; hop++) {
    const addresses = await resolveChecked(bareHost(url), rule, url.port || undefined);
    if (Date.now() >= deadline) throw new OutboundFailed(`No answer within ${Math.round((init.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s (timeout).`);
    const follow = maxRedirects > 0;
    const answer = await oneHop(url, addresses, init, method, headers, body, deadline, init.signal, true);
    const location = answer.headers.get('location');
    if (!follow || !REDIRECTS.has(answer.status) || !location) {
      const response = new Response(NULL_BODY.has(answer.status) || answer.status < 200 ? null : new Uint8Array(answer.body), { status: answer.status < 200 || answer.status > 599 ? 502 : answer.status, statusText: answer.statusText, headers: answer.headers });
      Object.defineProperty(response, 'url', { value: url.toString() });
      return response;
    }
    if (hop >= maxRedirects) throw new OutboundFailed(`More than ${maxRedirects} redirects.`);
    let next: URL;
    try {
      next = parseRuleUrl(new URL(location, url).toString(), rule);
    } catch {
      throw new TargetRefused(`The redirect to ${location.slice(0, 200)} is not allowed.`);
    }
    if (answer.status === 303 || ((answer.status === 301 || answer.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
      const { 'content-type': _type, ...rest } = headers;
      headers = rest;
    }
    if (next.origin !== origin) headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.includes(name)));
    url = next;
  }
}
