import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** A setting the server refuses to start with; main.ts prints the message and exits non-zero. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Secrets that were ever shipped or documented as examples (ours and common Pusher-compatible
 * servers'). Anyone can sign channel subscriptions and publish events with them, so they are
 * refused wherever they come from.
 */
export const PUBLISHED_SECRETS: readonly string[] = ['cairn-secret-change-me', 'app-secret', 'secret', 'change-me', 'changeme'];

/** Shorter than this is guessable or a placeholder; a generated secret is 43 characters. */
export const MIN_SECRET_LENGTH = 16;

/** Where the generated realtime secret is kept, inside DATA_DIR (mode 0600). */
export const REALTIME_SECRET_FILE = 'realtime-secret';

function checkSecret(value: string, source: string): string {
  if (PUBLISHED_SECRETS.includes(value.toLowerCase())) {
    throw new ConfigError(
      `${source} is the published default "${value}": anyone could sign realtime subscriptions with it. ` +
        `Set PUSHER_APP_SECRET to a random value (for example the output of \`openssl rand -hex 32\`), or unset it to let Cairn generate one in DATA_DIR.`,
    );
  }
  if (value.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(`${source} is ${value.length} characters long; use at least ${MIN_SECRET_LENGTH} random characters (for example \`openssl rand -hex 32\`).`);
  }
  return value;
}

/**
 * The secret that signs realtime subscriptions and publish requests.
 * - PUSHER_APP_SECRET wins (checked: no published default, not too short).
 * - With an external realtime service (PUSHER_HOST) it must be set: that service has its own.
 * - Otherwise the secret generated on first start into DATA_DIR is used; it is created once and
 *   read back on every later start, so subscriptions signed before a restart still verify.
 * Several API servers must share one secret: they set it in the environment (docs/operations.md,
 * docs/decisions/0092-secrets-and-headers.md).
 */
export function realtimeSecret(env: NodeJS.ProcessEnv, dataDir: string): string {
  const fromEnv = env.PUSHER_APP_SECRET;
  if (fromEnv !== undefined && fromEnv !== '') return checkSecret(fromEnv, 'PUSHER_APP_SECRET');
  if (env.PUSHER_HOST) {
    throw new ConfigError('PUSHER_HOST is set but PUSHER_APP_SECRET is not: set it to the secret of that realtime service (the same on every API server).');
  }
  const file = path.join(dataDir, REALTIME_SECRET_FILE);
  return checkSecret(readOrCreateSecretFile(file), file);
}

export function readOrCreateSecretFile(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const secret = crypto.randomBytes(32).toString('base64url');
  // Written beside and linked into place: link never overwrites and is atomic, so two processes
  // starting on one DATA_DIR agree on whichever came first and never read a half-written file.
  const draft = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
  fs.writeFileSync(draft, secret + '\n', { mode: 0o600 });
  try {
    fs.linkSync(draft, file);
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return fs.readFileSync(file, 'utf8').trim();
  } finally {
    fs.rmSync(draft, { force: true });
  }
}
