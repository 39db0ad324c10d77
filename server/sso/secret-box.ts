import crypto from 'node:crypto';
import path from 'node:path';
import { ConfigError, MIN_SECRET_LENGTH, readOrCreateSecretFile } from '../secrets';

/**
 * Secrets the server must read back (an identity provider's client secret) are stored sealed with
 * AES-256-GCM, so a database dump or backup alone does not reveal them (decision 0270).
 *
 * The key: SECRETS_KEY from the environment (every API server of a cluster sets the same one), else
 * one generated on first start into DATA_DIR/secrets-key (mode 0600), like the realtime secret.
 * Losing the key loses only what it sealed: the owner enters the client secret again.
 */
export const SECRETS_KEY_FILE = 'secrets-key';
const VERSION = 'v1';

const keys = new Map<string, Buffer>();

export function secretsKey(fromEnv: string | null, dataDir: string): Buffer {
  const cacheKey = fromEnv ? `env:${fromEnv}` : `file:${dataDir}`;
  const cached = keys.get(cacheKey);
  if (cached) return cached;
  let material: string;
  if (fromEnv) {
    if (fromEnv.length < MIN_SECRET_LENGTH) throw new ConfigError(`SECRETS_KEY is ${fromEnv.length} characters long; use at least ${MIN_SECRET_LENGTH} random characters (for example \`openssl rand -hex 32\`).`);
    material = fromEnv;
  } else {
    material = readOrCreateSecretFile(path.join(dataDir, SECRETS_KEY_FILE));
  }
  // Whatever its length, the material becomes a 32-byte key bound to this one use.
  const key = Buffer.from(crypto.hkdfSync('sha256', material, 'cairn', 'stored-secrets-v1', 32));
  keys.set(cacheKey, key);
  return key;
}

/** `v1.<iv>.<tag>.<ciphertext>` (base64url), authenticated with the purpose as associated data. */
export function seal(key: Buffer, plaintext: string, purpose: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(purpose));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

/** The plaintext, or null when the value was sealed with another key (or for another purpose) or is damaged. */
export function unseal(key: Buffer, sealed: string, purpose: string): string | null {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || body === undefined) return null;
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(purpose));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
