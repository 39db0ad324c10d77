import dns from 'node:dns';
import ipaddr from 'ipaddr.js';

/**
 * The address rule of every outbound request (issue #26 part 4, decision 0355). An address is
 * allowed only when it is public unicast: loopback, private, link-local (cloud metadata
 * 169.254.169.254 included), carrier-grade NAT, unique-local IPv6 (fd00:ec2::254), multicast,
 * broadcast, reserved and unspecified ranges are refused, and so is an IPv4 address written as
 * IPv6 (::ffff:127.0.0.1 is judged as 127.0.0.1; NAT64 64:ff9b::/96, 6to4 and Teredo are refused
 * whole). The ranges are ipaddr.js's, not ours.
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

/** The message of a malformed URL (the webhooks issue's contract). */
export const MALFORMED_URL = 'not a valid URL format';

/**
 * Parses a target URL: http or https with a host, no credentials; anything else is malformed.
 * WHATWG parsing already turns 2130706433, 0177.0.0.1 and 0x7f.1 into 127.0.0.1.
 */
export function parseTargetUrl(raw: unknown): URL {
  if (typeof raw !== 'string' && !(raw instanceof URL)) throw new TargetRefused(MALFORMED_URL);
  const text = String(raw);
  if (text.length > 2000) throw new TargetRefused(MALFORMED_URL);
  let url: URL;
  try {
    url = new URL(text.trim());
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
export const bareHost = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** The rule for one feature's requests: see policy.ts. */
export interface AddressRule {
  /** The feature's operator setting lifts the address rule for every host. */
  allowPrivate: boolean;
  /** Hosts (name, or name:port) the operator allows to resolve to inside addresses. */
  allowedHosts?: readonly string[];
  /** A resolver in place of the system's (tests). */
  resolve?: Resolver;
  /** Only https addresses (web push: a push service is always https, RFC 8030). */
  httpsOnly?: boolean;
}

/** True when the operator allowed this host (by name or by name:port) for the feature. */
export function hostAllowed(rule: AddressRule, host: string, port?: string): boolean {
  const list = rule.allowedHosts;
  if (!list?.length) return false;
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  return list.some((entry) => {
    const e = entry.toLowerCase().replace(/^\[(.*)\]$/, '$1');
    return e === name || (port !== undefined && e === `${name}:${port}`) || (port !== undefined && e === `[${name}]:${port}`);
  });
}

/**
 * Resolves the host once and checks every address. Returns the addresses (the first is the one
 * to connect to). Throws TargetRefused when the name does not resolve or any address is refused.
 */
export async function resolveChecked(hostname: string, rule: AddressRule, port?: string): Promise<{ address: string; family: number }[]> {
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  const open = rule.allowPrivate || hostAllowed(rule, host, port);
  if (ipaddr.isValid(host)) {
    const reason = open ? null : refusedAddressReason(host);
    if (reason) throw new TargetRefused(`The target is not allowed: ${reason}.`);
    return [{ address: host, family: host.includes(':') ? 6 : 4 }];
  }
  let addresses: { address: string; family: number }[];
  try {
    addresses = await (rule.resolve ?? systemResolver)(host);
  } catch {
    throw new TargetRefused(`The target's host ${host} could not be resolved.`);
  }
  if (addresses.length === 0) throw new TargetRefused(`The target's host ${host} could not be resolved.`);
  if (!open) {
    for (const { address } of addresses) {
      const reason = refusedAddressReason(address);
      // Any refused answer refuses the name: a resolver may rotate its answers.
      if (reason) throw new TargetRefused(`The target is not allowed: ${host} resolves to ${reason}.`);
    }
  }
  return addresses;
}

/** Parses a URL under the rule's scheme: a rule for https only refuses http. */
export function parseRuleUrl(raw: unknown, rule: AddressRule): URL {
  const url = parseTargetUrl(raw);
  if (rule.httpsOnly && url.protocol !== 'https:') throw new TargetRefused('The target must be an https address.');
  return url;
}

/** Checks a URL without connecting (a hook's or an issuer's save): well formed, allowed addresses only. */
export async function checkTargetUrl(raw: unknown, rule: AddressRule): Promise<URL> {
  const url = parseRuleUrl(raw, rule);
  await resolveChecked(bareHost(url), rule, url.port || undefined);
  return url;
}

/** Names that are local by definition: localhost (RFC 6761), mDNS .local, .internal, .home.arpa (RFC 8375), one-label names. */
export function isLocalName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  if (!name.includes('.')) return true;
  return ['localhost', 'localdomain', 'local', 'internal', 'home.arpa'].some((suffix) => name === suffix || name.endsWith(`.${suffix}`));
}

/**
 * Checks a URL's form without resolving it, for an address stored now and fetched later (a push
 * subscription): the rule's scheme, an IP literal judged by the address rule, and no local name.
 * The fetch (outboundFetch) resolves and checks the name again when it connects.
 */
export function checkTargetForm(raw: unknown, rule: AddressRule): URL {
  const url = parseRuleUrl(raw, rule);
  const host = bareHost(url);
  const port = url.port || undefined;
  if (rule.allowPrivate || hostAllowed(rule, host, port)) return url;
  if (ipaddr.isValid(host)) {
    const reason = refusedAddressReason(host);
    if (reason) throw new TargetRefused(`The target is not allowed: ${reason}.`);
  } else if (isLocalName(host)) throw new TargetRefused(`The target is not allowed: ${host} is a local name.`);
  return url;
}
