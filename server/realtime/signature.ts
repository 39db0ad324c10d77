import crypto from 'node:crypto';

/**
 * HMAC-SHA256 signing of the Pusher protocol, used both to issue subscription auth (multi-auth)
 * and to check it (embedded server), and to verify signed HTTP publish requests.
 */
export function hmacHex(secret: string, text: string): string {
  return crypto.createHmac('sha256', secret).update(text, 'utf8').digest('hex');
}

/** Constant-time comparison of two strings (false when lengths differ). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/** The string a channel subscription signature covers: `socket_id:channel[:channel_data]`. */
export function subscriptionSubject(socketId: string, channel: string, channelData?: string): string {
  return channelData === undefined ? `${socketId}:${channel}` : `${socketId}:${channel}:${channelData}`;
}

/** The `auth` value a client sends with pusher:subscribe: `key:signature`. */
export function signSubscription(key: string, secret: string, socketId: string, channel: string, channelData?: string): string {
  return `${key}:${hmacHex(secret, subscriptionSubject(socketId, channel, channelData))}`;
}

export function verifySubscription(key: string, secret: string, auth: unknown, socketId: string, channel: string, channelData?: string): boolean {
  if (typeof auth !== 'string') return false;
  return safeEqual(auth, signSubscription(key, secret, socketId, channel, channelData));
}

export const md5Hex = (body: string) => crypto.createHash('md5').update(body, 'utf8').digest('hex');

/**
 * The string an HTTP API request signature covers: `METHOD\npath\nsorted query` where the query is
 * every parameter except auth_signature, sorted by name, as `name=value` joined with `&`.
 */
export function httpSigningString(method: string, path: string, query: Record<string, string>): string {
  const pairs = Object.keys(query)
    .filter((name) => name !== 'auth_signature')
    .sort()
    .map((name) => `${name}=${query[name]}`);
  return [method.toUpperCase(), path, pairs.join('&')].join('\n');
}
