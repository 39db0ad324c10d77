import { Messages } from '../../schema/messages';
import { TOKEN_SAFETY_MARGIN_MS } from '../../schema/constants';

/** The access token record (shell.md §3). Kept in memory only, never in local storage. */
export interface AccessToken {
  access_token: string;
  expires_in?: number;
  refresh_expires_in?: number;
  created_at?: string;
}

/** Validates a token record from the server (shell.md §8: missing access_token is an error). */
export function readToken(value: unknown): AccessToken {
  const record = value as Partial<AccessToken> | null;
  if (!record || typeof record.access_token !== 'string' || !record.access_token) throw new Error(Messages.missingAccessToken);
  return { access_token: record.access_token, expires_in: record.expires_in, refresh_expires_in: record.refresh_expires_in, created_at: record.created_at };
}

const created = (token: AccessToken, now: number) => (token.created_at ? Date.parse(token.created_at) : now);

/** Expired at expiry minus the 5 s safety margin. */
export function isExpired(token: AccessToken, now: number): boolean {
  if (typeof token.expires_in !== 'number') return false;
  return now >= created(token, now) + token.expires_in * 1000 - TOKEN_SAFETY_MARGIN_MS;
}

/** Refreshable only when expired and the refresh lifetime (minus the margin) has not passed. */
export function canRefresh(token: AccessToken, now: number): boolean {
  if (!isExpired(token, now)) return false;
  if (typeof token.refresh_expires_in !== 'number') return true;
  return now < created(token, now) + token.refresh_expires_in * 1000 - TOKEN_SAFETY_MARGIN_MS;
}
