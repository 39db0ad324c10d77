import crypto from 'node:crypto';
import path from 'node:path';
import { ConfigError, MIN_SECRET_LENGTH, readOrCreateSecretFile } from './secrets';

/**
 * Secrets the server must read back (a workspace's SMTP password, decision 0265; an identity
 * provider's client secret, decision 0270) are stored
 * sealed with AES-256-GCM, never in clear. The key comes from SECRETS_KEY (every API server of a
 * cluster sets the same) or, on one machine, from DATA_DIR/secrets-key, generated on first use
 * like the realtime secret (server/secrets.ts). Losing the key loses the sealed values (they are
 * entered again), never the rest of the data.
 *
 * Sealed form: `v1.<base64url(iv 12 bytes | tag 16 bytes | ciphertext)>`. A `purpose` (e.g.
 * 'sso.oidc_client_secret') is bound as associated data, so a value sealed for one use does not
 * open as another; none is the same as an empty one.
 */
export const SECRETS_KEY_FILE = 'secrets-key';

const keys = new Map<string, Buffer>();

export function secretsKey(dataDir: string, fromEnv: string | null | undefined = process.env.SECRETS_KEY): Buffer {
  const cacheKey = fromEnv ? `env:${fromEnv}` : `file:${dataDir}`;
  const known = keys.get(cacheKey);
  if (known) return known;
  let material: string;
  if (fromEnv) {
    if (fromEnv.length < MIN_SECRET_LENGTH) throw new ConfigError(`SECRETS_KEY is ${fromEnv.length} characters long; use at least ${MIN_SECRET_LENGTH} random characters (for example \`openssl rand -hex 32\`).`);
    material = fromEnv;
  } else {
    material = readOrCreateSecretFile(path.join(dataDir, SECRETS_KEY_FILE));
  }
  const key = crypto.createHash('sha256').update(`cairn-secret-box:${material}`).digest();
  keys.set(cacheKey, key);
  return key;
}

export function seal(key: Buffer, plain: string, purpose = ''): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  if (purpose) cipher.setAAD(Buffer.from(purpose));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
}

/** The clear text, or null when the value was sealed with another key or altered. */
export function unseal(key: Buffer, sealed: string, purpose = ''): string | null {
  if (!sealed.startsWith('v1.')) return null;
  const raw = Buffer.from(sealed.slice(3), 'base64url');
  if (raw.length < 28) return null;
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    if (purpose) decipher.setAAD(Buffer.from(purpose));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
