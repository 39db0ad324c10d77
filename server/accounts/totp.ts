import crypto from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

/** RFC 6238 defaults every authenticator app understands. */
const PERIOD_S = 30;
const DIGITS = 6;
/** One step either side tolerates a phone clock that is up to 30 s off. */
const WINDOW = 1;
export const RECOVERY_CODE_COUNT = 8;

const totpFor = (secret: string, label = '') =>
  new TOTP({ issuer: 'Cairn', label, secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: DIGITS, period: PERIOD_S });

/** A new random 160-bit secret, base32 encoded (what authenticator apps expect). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI and a QR code of it (an SVG data URL an <img> can show). */
export async function provisioning(secret: string, email: string): Promise<{ otpauth_url: string; qr_code: string }> {
  const uri = totpFor(secret, email).toString();
  const svg = await QRCode.toString(uri, { type: 'svg', margin: 1 });
  return { otpauth_url: uri, qr_code: 'data:image/svg+xml;base64,' + Buffer.from(svg).toString('base64') };
}

/**
 * The time step a code belongs to, or null when it matches none within the window.
 * The caller must accept a step only if it is later than the last step used (no replay).
 */
export function matchingStep(secret: string, code: string, now: Date): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const totp = totpFor(secret);
  const delta = totp.validate({ token, timestamp: now.getTime(), window: WINDOW });
  if (delta === null) return null;
  return totp.counter({ timestamp: now.getTime() }) + delta;
}

/** The code of a secret at a time (tests, and nothing else, need to produce codes). */
export function codeAt(secret: string, at: Date): string {
  return totpFor(secret).generate({ timestamp: at.getTime() });
}

/** Recovery codes look like `k7m2q-9xw4t`; shown once, stored only as hashes. */
export function newRecoveryCodes(): string[] {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const part = () => Array.from({ length: 5 }, () => alphabet[crypto.randomInt(alphabet.length)]).join('');
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => `${part()}-${part()}`);
}

export const normalizeRecoveryCode = (code: string) => code.trim().toLowerCase().replace(/\s+/g, '');
export const hashRecoveryCode = (code: string) => crypto.createHash('sha256').update(normalizeRecoveryCode(code)).digest('hex');
