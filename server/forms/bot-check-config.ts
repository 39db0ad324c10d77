import { ConfigError } from '../secrets';

/**
 * The bot check of public forms (shell.md §3 "bot-check sitekey"): a challenge widget in the
 * browser (its public sitekey goes out in /api/app-vars as `botCheckSitekey`) whose token the
 * server verifies at the provider's verify address with the secret. Any provider speaking the
 * common "siteverify" form (secret, response, remoteip → {success}) fits.
 *   BOT_CHECK_SITEKEY, BOT_CHECK_SECRET, BOT_CHECK_VERIFY_URL: all three, or none.
 *   BOT_CHECK_SCRIPT_URL, BOT_CHECK_WIDGET_CLASS: the provider's widget script and the class of
 *     the element it fills (decision 0211); both or neither, and only with the three. Without
 *     them only a client that brings its own widget (the API) can answer a form.
 */
export interface BotCheckConfig {
  sitekey: string;
  secret: string;
  verifyUrl: string;
  /** The widget the server's form page loads (/form/{id}); null: the page shows none. */
  widget?: BotCheckWidget | null;
}

export interface BotCheckWidget {
  /** The provider's script, https (http only on localhost / 127.0.0.1, for tests). */
  scriptUrl: string;
  /** Its origin: what the form page's Content-Security-Policy allows for script, frame and connect. */
  origin: string;
  /** The class the script looks for (cf-turnstile, h-captcha, …). */
  className: string;
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1']);
const CLASS_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

function widgetOf(env: NodeJS.ProcessEnv): BotCheckWidget | null {
  const scriptUrl = env.BOT_CHECK_SCRIPT_URL?.trim() || '';
  const className = env.BOT_CHECK_WIDGET_CLASS?.trim() || '';
  if (!scriptUrl && !className) return null;
  if (!scriptUrl || !className) throw new ConfigError('BOT_CHECK_SCRIPT_URL and BOT_CHECK_WIDGET_CLASS go together: set both or neither.');
  let url: URL;
  try {
    url = new URL(scriptUrl);
  } catch {
    throw new ConfigError('BOT_CHECK_SCRIPT_URL must be a full https address of the provider’s widget script.');
  }
  const local = url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !local) throw new ConfigError('BOT_CHECK_SCRIPT_URL must be an https address (http only on localhost or 127.0.0.1).');
  if (url.username || url.password) throw new ConfigError('BOT_CHECK_SCRIPT_URL must not carry a user name or password.');
  if (!CLASS_NAME.test(className)) throw new ConfigError('BOT_CHECK_WIDGET_CLASS must be one class name: a letter, then letters, digits, - or _ (at most 64).');
  return { scriptUrl: url.href, origin: url.origin, className };
}

export function loadBotCheckConfig(env: NodeJS.ProcessEnv): BotCheckConfig | null {
  const sitekey = env.BOT_CHECK_SITEKEY?.trim() || '';
  const secret = env.BOT_CHECK_SECRET?.trim() || '';
  const verifyUrl = env.BOT_CHECK_VERIFY_URL?.trim() || '';
  const widget = widgetOf(env);
  if (!sitekey && !secret && !verifyUrl) {
    if (widget) throw new ConfigError('BOT_CHECK_SCRIPT_URL and BOT_CHECK_WIDGET_CLASS need BOT_CHECK_SITEKEY, BOT_CHECK_SECRET and BOT_CHECK_VERIFY_URL.');
    return null;
  }
  if (!sitekey || !secret || !verifyUrl) throw new ConfigError('BOT_CHECK_SITEKEY, BOT_CHECK_SECRET and BOT_CHECK_VERIFY_URL go together: set all three or none.');
  if (!/^https?:\/\//.test(verifyUrl)) throw new ConfigError('BOT_CHECK_VERIFY_URL must be an http(s) address.');
  return { sitekey, secret, verifyUrl, widget };
}
