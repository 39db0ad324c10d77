/**
 * The access token record of shell.md §3/§4: valid, then expired at expiry minus 5 s; it may be
 * refreshed only while the refresh lifetime (from created_at, minus 5 s) has not passed,
 * otherwise it is cleared. Pure functions over a record and a time.
 */
import { Messages } from '../schema/messages';
import { TOKEN_SAFETY_MARGIN_MS } from '../schema/constants';
import type { TokenRecord } from './types';

/** Checks a token record from login/refresh; the spec's message when access_token is missing. */
export function validateTokenRecord(value: unknown): TokenRecord {
  if (!value || typeof value !== 'object' || typeof (value as TokenRecord).access_token !== 'string' || !(value as TokenRecord).access_token) {
    throw new Error(Messages.missingAccessToken);
  }
  const record = value as TokenRecord;
  return {
    access_token: record.access_token,
    refresh_token: record.refresh_token,
    expires_in: record.expires_in,
    refresh_expires_in: record.refresh_expires_in,
    created_at: record.created_at,
  };
}

function createdAt(record: TokenRecord, fallback: number): number {
  const t = record.created_at ? Date.parse(record.created_at) : NaN;
  return Number.isFinite(t) ? t : fallback;
}

/** When the token counts as expired (expiry minus the safety margin); Infinity without expires_in. */
export function expiresAt(record: TokenRecord, receivedAt: number): number {
  if (typeof record.expires_in !== 'number') return Infinity;
  return createdAt(record, receivedAt) + record.expires_in * 1000 - TOKEN_SAFETY_MARGIN_MS;
}

/** Until when a refresh may be tried; -Infinity when the record cannot be refreshed at all. */
export function refreshableUntil(record: TokenRecord, receivedAt: number): number {
  // The web client's refresh token is an httpOnly cookie, so the record may carry none itself.
  if (typeof record.refresh_expires_in !== 'number') return -Infinity;
  return createdAt(record, receivedAt) + record.refresh_expires_in * 1000 - TOKEN_SAFETY_MARGIN_MS;
}

export type TokenState = 'valid' | 'refresh' | 'expired';

export function tokenState(record: TokenRecord, receivedAt: number, now: number): TokenState {
  if (now < expiresAt(record, receivedAt)) return 'valid';
  return now < refreshableUntil(record, receivedAt) ? 'refresh' : 'expired';
}
