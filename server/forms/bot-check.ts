import type { BotCheckConfig } from './bot-check-config';
import { outboundFetch, type AddressRule } from '../outbound';

/**
 * Asks the bot-check provider whether the token the widget gave the visitor is good. Any failure
 * to get a clear "yes" (no token, the provider unreachable or slow, an answer that is not JSON)
 * refuses the answer: with the check configured, an unverified submission never writes.
 */
export async function botCheckPasses(config: BotCheckConfig, token: string | null, remoteIp: string, rule: AddressRule = { allowPrivate: false }): Promise<boolean> {
  if (!token || token.length > 4096) return false;
  try {
    const body = new URLSearchParams({ secret: config.secret, response: token, remoteip: remoteIp });
    // The provider's address is the operator's, still checked (BOT_CHECK_ALLOWED_HOSTS for an inside one).
    const res = await outboundFetch(rule, config.verifyUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: body.toString(), timeoutMs: 5000, maxBytes: 64 * 1024 });
    if (!res.ok) return false;
    const answer = (await res.json()) as { success?: unknown };
    return answer?.success === true;
  } catch {
    return false;
  }
}
