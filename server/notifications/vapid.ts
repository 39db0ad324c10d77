import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import webPush from 'web-push';
import { ConfigError } from '../secrets';
import type { ServerConfig } from '../config';

/**
 * The VAPID key pair that signs Web Push requests (RFC 8292). VAPID_PUBLIC_KEY + VAPID_PRIVATE_KEY
 * win (several API servers must share one pair: a browser's subscription is bound to the public
 * key it subscribed with); otherwise a pair is generated into DATA_DIR on first start and read
 * back on every later one, like the realtime secret (server/secrets.ts).
 */

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  /** Who runs this server, for push services to reach (mailto: or https:). */
  subject: string;
}

export const VAPID_KEYS_FILE = 'vapid-keys.json';

const cache = new Map<string, VapidKeys>();

export function vapidKeys(config: ServerConfig, env: NodeJS.ProcessEnv = process.env): VapidKeys {
  const known = cache.get(config.dataDir);
  if (known) return known;
  const keys = { ...readKeys(config, env), subject: subjectOf(config, env) };
  cache.set(config.dataDir, keys);
  return keys;
}

function readKeys(config: ServerConfig, env: NodeJS.ProcessEnv): { publicKey: string; privateKey: string } {
  const fromEnv = { publicKey: env.VAPID_PUBLIC_KEY ?? '', privateKey: env.VAPID_PRIVATE_KEY ?? '' };
  if (fromEnv.publicKey && fromEnv.privateKey) return fromEnv;
  if (fromEnv.publicKey || fromEnv.privateKey) throw new ConfigError('Set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (for example from `npx web-push generate-vapid-keys`), or neither to let Cairn generate a pair in DATA_DIR.');
  return readOrCreate(path.join(config.dataDir, VAPID_KEYS_FILE));
}

function readOrCreate(file: string): { publicKey: string; privateKey: string } {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const keys = webPush.generateVAPIDKeys();
  // Written beside and linked into place: two processes starting at once agree on the first pair.
  const draft = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
  fs.writeFileSync(draft, JSON.stringify(keys) + '\n', { mode: 0o600 });
  try {
    fs.linkSync(draft, file);
    return keys;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } finally {
    fs.rmSync(draft, { force: true });
  }
}

function subjectOf(config: ServerConfig, env: NodeJS.ProcessEnv): string {
  if (env.VAPID_SUBJECT) return env.VAPID_SUBJECT;
  if (config.publicUrl.startsWith('https://')) return config.publicUrl;
  const address = /<([^>]+)>/.exec(config.mailFrom)?.[1] ?? config.mailFrom;
  return `mailto:${address.trim()}`;
}
