import dns from 'node:dns';
import ipaddr from 'ipaddr.js';

/**
 * Which webhook targets the server may connect to (SSRF, decision 0140). A target must be an
 * http(s) URL whose host resolves only to public unicast addresses: loopback, private, link-local
 * (cloud metadata 169.254.169.254 included), carrier-grade NAT, unique-local IPv6 (fd00:ec2::254),
 * multicast, reserved and unspecified ranges are refused, and an IPv4 address written as IPv6
 * (::ffff:127.0.0.1, NAT64, 6to4, Teredo) is refused as well. The ranges are ipaddr.js's.
 *
 * Checked when a hook is saved and again when each request connects: the host is resolved, every
 * address checked, and the socket connects to the checked address (see `guardedLookup`), so a DNS
 * answer that changes between the check and the connection cannot reach an inside address.
 * WEBHOOKS_ALLOW_PRIVATE_TARGETS=true lifts the address rule (development, tests).
 */

export class TargetRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetRefused';
  }
}

/** Resolves a host name to its addresses (dns.lookup with all: true); tests inject their own. */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** The message of a malformed URL (the contract). */
export const MALFORMED_URL = 'not a valid URL format';

/** Parses a target URL: http or https with a host, no credentials; anything else is malformed. */
export function parseTargetUrl(raw: unknown): URL {
  if (typeof raw !== 'string' || raw.length > 2000) throw new TargetRefused(MALFORMED_URL);
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new TargetRefused(MALFORMED_URL);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname || url.username || url.password) throw new TargetRefused(MALFORMED_URL);
  return url;
}

/** Why an address is refused, or null when it is a public unicast address. */
export function refusedAddressReason(address: string): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  // process() turns ::ffff:a.b.c.d into the IPv4 address it carries, so the IPv4 rules apply.
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  return range === 'unicast' ? null : `${address} is a ${range} address`;
}

/** The host of a URL without IPv6 brackets. */
const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Resolves the host and checks every address. Returns the addresses (the first is used to
 * connect). Throws TargetRefused when the name does not resolve or any address is refused.
 */
export async function resolveTarget(hostname: string, opts: { allowPrivate: boolean; resolve?: Resolver }): Promise<{ address: string; family: number }[]> {
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  if (ipaddr.isValid(host)) {
    const reason = opts.allowPrivate ? null : refusedAddressReason(host);
    if (reason) throw new TargetRefused(`The target is not allowed: ${reason}.`);
    return [{ address: host, family: host.includes(':') ? 6 : 4 }];
  }
  let addresses: { address: string; family: number }[];
  try {
    addresses = await (opts.resolve ?? systemResolver)(host);
  } catch {
    throw new TargetRefused(`The target's host ${host} could not be resolved.`);
  }
  if (addresses.length === 0) throw new TargetRefused(`The target's host ${host} could not be resolved.`);
  if (!opts.allowPrivate) {
    for (const { address } of addresses) {
      const reason = refusedAddressReason(address);
      // Any refused answer refuses the name: a resolver may rotate its answers.
      if (reason) throw new TargetRefused(`The target is not allowed: ${host} resolves to ${reason}.`);
    }
  }
  return addresses;
}

/** Checks a URL at save time: well formed and (unless allowed) resolving to public addresses only. */
export async function checkTargetUrl(raw: unknown, opts: { allowPrivate: boolean; resolve?: Resolver }): Promise<URL> {
  const url = parseTargetUrl(raw);
  await resolveTarget(bareHost(url), opts);
  return url;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request: resolves and checks, then hands the socket only the checked
 * address. (Node calls it for host names; an IP literal is checked by resolveTarget beforehand.)
 */
export function guardedLookup(opts: { allowPrivate: boolean; resolve?: Resolver }) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    resolveTarget(hostname, opts).then(
      (addresses) => {
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: Error) => callback(Object.assign(error, { code: 'ETARGETREFUSED' }) as NodeJS.ErrnoException, ''),
    );
  };
}
