import { ConfigError } from '../secrets';

/**
 * The bot check of public forms (shell.md §3 "bot-check sitekey"): a challenge widget in the
 * browser (its public sitekey goes out in /api/app-vars as `botCheckSitekey`) whose token the
 * server verifies at the provider's verify address with the secret. Any provider speaking the
 * common "siteverify" form (secret, response, remoteip → {success}) fits.
 *   BOT_CHECK_SITEKEY, BOT_CHECK_SECRET, BOT_CHECK_VERIFY_URL: all three, or none.
 */
export interface BotCheckConfig {
  sitekey: string;
  secret: string;
  verifyUrl: string;
}

export function loadBotCheckConfig(env: NodeJS.ProcessEnv): BotCheckConfig | null {
  const sitekey = env.BOT_CHECK_SITEKEY?.trim() || '';
  const secret = env.BOT_CHECK_SECRET?.trim() || '';
  const verifyUrl = env.BOT_CHECK_VERIFY_URL?.trim() || '';
  if (!sitekey && !secret && !verifyUrl) return null;
  if (!sitekey || !secret || !verifyUrl) throw new ConfigError('BOT_CHECK_SITEKEY, BOT_CHECK_SECRET and BOT_CHECK_VERIFY_URL go together: set all three or none.');
  if (!/^https?:\/\//.test(verifyUrl)) throw new ConfigError('BOT_CHECK_VERIFY_URL must be an http(s) address.');
  return { sitekey, secret, verifyUrl };
}
