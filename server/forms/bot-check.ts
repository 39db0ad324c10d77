import type { BotCheckConfig } from './bot-check-config';

/**
 * Asks the bot-check provider whether the token the widget gave the visitor is good. Any failure
 * to get a clear "yes" (no token, the provider unreachable or slow, an answer that is not JSON)
 * refuses the answer: with the check configured, an unverified submission never writes.
 */
export async function botCheckPasses(config: BotCheckConfig, token: string | null, remoteIp: string): Promise<boolean> {
  if (!token || token.length > 4096) return false;
  try {
    const body = new URLSearchParams({ secret: config.secret, response: token, remoteip: remoteIp });
    const res = await fetch(config.verifyUrl, { method: 'POST', body, signal: AbortSignal.timeout(5000) });
    if (!res.ok) return false;
    const answer = (await res.json()) as { success?: unknown };
    return answer?.success === true;
  } catch {
    return false;
  }
}
