import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { REFRESH_TOKEN_TTL_S, type TokenRecord } from '../auth/tokens';

/**
 * The web client's refresh token lives only in this cookie: httpOnly (no script can read it),
 * SameSite=Strict (never sent by another site), and scoped to /api/auth so ordinary API calls do
 * not carry it. The access token travels in the JSON body and is kept in memory by the worker.
 * See docs/decisions/0010-web-refresh-cookie.md.
 */
export const REFRESH_COOKIE = 'cairn_refresh';
const COOKIE_PATH = '/api/auth';

/**
 * `Secure` whenever the browser reached us over TLS: the request itself was https (directly, or as
 * X-Forwarded-Proto from a proxy trusted through TRUST_PROXY, which is what `request.protocol`
 * reads), or PUBLIC_URL says https. An untrusted X-Forwarded-Proto is ignored by Fastify.
 */
const secure = (ctx: AppContext, reply: FastifyReply) => reply.request.protocol === 'https' || ctx.config.publicUrl.startsWith('https:');

export function setRefreshCookie(ctx: AppContext, reply: FastifyReply, refreshToken: string): void {
  reply.setCookie(REFRESH_COOKIE, refreshToken, { httpOnly: true, sameSite: 'strict', secure: secure(ctx, reply), path: COOKIE_PATH, maxAge: REFRESH_TOKEN_TTL_S });
}

export function clearRefreshCookie(ctx: AppContext, reply: FastifyReply): void {
  reply.clearCookie(REFRESH_COOKIE, { httpOnly: true, sameSite: 'strict', secure: secure(ctx, reply), path: COOKIE_PATH });
}

export const refreshCookieOf = (request: FastifyRequest): string | null => request.cookies?.[REFRESH_COOKIE] || null;

/**
 * The token record as a client receives it. Native and desktop clients (`grantType: "password"`)
 * get the refresh token in the body; the web client gets it only as the cookie.
 */
export function deliverTokens(ctx: AppContext, reply: FastifyReply, tokens: TokenRecord, inBody: boolean): Omit<TokenRecord, 'refresh_token'> & { refresh_token?: string } {
  const { refresh_token, ...record } = tokens;
  if (inBody) return { ...record, refresh_token };
  setRefreshCookie(ctx, reply, refresh_token);
  return record;
}
