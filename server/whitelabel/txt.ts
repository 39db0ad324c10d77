import dns from 'node:dns/promises';
import type { AppContext } from '../context';

/** TXT lookup: node's resolver by default; tests put their own (setTxtResolver). */
export type TxtResolver = (name: string) => Promise<string[][]>;
const resolvers = new WeakMap<object, TxtResolver>();
export const setTxtResolver = (ctx: AppContext, resolve: TxtResolver) => void resolvers.set(ctx, resolve);
/**
 * WHITELABEL_DNS_SERVERS (comma-separated, `1.1.1.1` or `127.0.0.1:5353`): ask these servers
 * instead of the system's, e.g. a public resolver where the machine's own DNS answers differently
 * for the customer's names (split horizon). Unset: the system resolver.
 */
function defaultResolver(): TxtResolver {
  const servers = (process.env.WHITELABEL_DNS_SERVERS ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (servers.length === 0) return (name) => dns.resolveTxt(name);
  const resolver = new dns.Resolver({ timeout: 5_000, tries: 2 });
  resolver.setServers(servers);
  return (name) => resolver.resolveTxt(name);
}
let systemTxt: TxtResolver | null = null;
const txtResolver = (ctx: AppContext): TxtResolver => resolvers.get(ctx) ?? (systemTxt ??= defaultResolver());
/** The TXT answers for a name, through the same resolver (single sign-on domains prove themselves the same way). */
export const lookupTxt = (ctx: AppContext, name: string) => txtResolver(ctx)(name);
