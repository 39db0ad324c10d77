import crypto from 'node:crypto';
import type OAuth2Server from '@node-oauth/oauth2-server';
import type { AppContext } from '../context';
import { hashToken } from '../auth/tokens';
import { API_ABILITIES, TOKEN_PREFIX, isApiAbility } from '../../schema/api-abilities';
import { newSecret } from './api-tokens';
import { findClient, secretMatches } from './oauth-clients';

/**
 * The storage side of the OAuth library (@node-oauth/oauth2-server; decision 0145): it runs the
 * protocol (request checks, PKCE verification, code single use, RFC 6749 error shapes) and asks
 * this model to find clients and to keep codes and tokens, which we store hashed in our tables.
 *
 * Clocks: the library compares expiries with the wall clock, the server runs on `ctx.now()` (tests
 * move it). Expiries are handed to the library shifted by the difference, so both agree.
 */

export const OAUTH_GRANTS = ['authorization_code', 'refresh_token'];
/** Scopes when an app asks for none: read only. */
export const DEFAULT_OAUTH_SCOPE = ['read'];

type Client = OAuth2Server.Client & { dbId: number; name: string };
type User = { id: number };

export function oauthModel(ctx: AppContext): OAuth2Server.AuthorizationCodeModel & OAuth2Server.RefreshTokenModel {
  const skew = () => Date.now() - ctx.now().getTime();
  const toWall = (date: Date) => new Date(date.getTime() + skew());
  const fromWall = (date: Date) => new Date(date.getTime() - skew());

  const clientOf = (row: { id: number; client_id: string; name: string; redirect_uris: string[] }): Client => ({
    id: row.client_id,
    dbId: row.id,
    name: row.name,
    redirectUris: row.redirect_uris,
    grants: OAUTH_GRANTS,
  });

  async function clientByDbId(id: number): Promise<Client | null> {
    const row = await ctx.db.selectFrom('oauth_clients').select(['id', 'client_id', 'name', 'redirect_uris']).where('id', '=', id).executeTakeFirst();
    return row ? clientOf(row) : null;
  }

  return {
    async getClient(clientId, clientSecret) {
      const row = await findClient(ctx.db, String(clientId));
      if (!row) return null;
      // The authorisation request names the client without a secret; the token request must prove it.
      if (clientSecret !== null && clientSecret !== undefined && !secretMatches(String(clientSecret), row.secret_hash)) return null;
      return clientOf(row);
    },

    async validateScope(_user, _client, scope) {
      const asked = scope && scope.length ? scope : DEFAULT_OAUTH_SCOPE;
      return asked.every(isApiAbility) ? [...new Set(asked)] : false;
    },

    async validateRedirectUri(redirectUri, client) {
      return ([client.redirectUris ?? []].flat() as string[]).includes(redirectUri);
    },

    async generateAuthorizationCode() {
      return crypto.randomBytes(32).toString('base64url');
    },

    async saveAuthorizationCode(code, client, user) {
      const c = client as Client;
      await ctx.db
        .insertInto('oauth_codes')
        .values({
          code_hash: hashToken(code.authorizationCode),
          client_id: c.dbId,
          user_id: (user as User).id,
          redirect_uri: code.redirectUri,
          abilities: code.scope ?? DEFAULT_OAUTH_SCOPE,
          code_challenge: code.codeChallenge!,
          code_challenge_method: code.codeChallengeMethod!,
          expires_at: fromWall(code.expiresAt),
          created_at: ctx.now(),
        })
        .execute();
      return { ...code, client, user };
    },

    async getAuthorizationCode(authorizationCode) {
      const hash = hashToken(authorizationCode);
      const row = await ctx.db.selectFrom('oauth_codes').selectAll().where('code_hash', '=', hash).executeTakeFirst();
      if (!row) return null;
      if (row.used_at) {
        // A code presented twice: someone else holds it. RFC 6749 §4.1.2: revoke what it bought.
        await ctx.db.updateTable('api_tokens').set({ revoked_at: ctx.now() }).where('code_hash', '=', hash).where('revoked_at', 'is', null).execute();
        return null;
      }
      const client = await clientByDbId(row.client_id);
      if (!client) return null;
      return {
        authorizationCode,
        expiresAt: toWall(row.expires_at),
        redirectUri: row.redirect_uri,
        scope: row.abilities,
        client,
        user: { id: row.user_id },
        codeChallenge: row.code_challenge,
        codeChallengeMethod: row.code_challenge_method,
      };
    },

    async revokeAuthorizationCode(code) {
      const result = await ctx.db
        .updateTable('oauth_codes')
        .set({ used_at: ctx.now() })
        .where('code_hash', '=', hashToken(code.authorizationCode))
        .where('used_at', 'is', null)
        .executeTakeFirst();
      // Only one of two parallel exchanges of one code wins.
      return Number(result.numUpdatedRows) > 0;
    },

    async generateAccessToken() {
      return newSecret(TOKEN_PREFIX.oauth);
    },

    async generateRefreshToken() {
      return newSecret(TOKEN_PREFIX.refresh);
    },

    async saveToken(token, client, user) {
      const c = client as Client;
      const abilities = (token.scope ?? DEFAULT_OAUTH_SCOPE).filter((scope: string) => (API_ABILITIES as readonly string[]).includes(scope));
      await ctx.db
        .insertInto('api_tokens')
        .values({
          user_id: (user as User).id,
          kind: 'oauth',
          name: c.name,
          client_id: c.dbId,
          code_hash: token.authorizationCode ? hashToken(String(token.authorizationCode)) : null,
          token_hash: hashToken(token.accessToken),
          refresh_hash: token.refreshToken ? hashToken(token.refreshToken) : null,
          abilities,
          expires_at: token.accessTokenExpiresAt ? fromWall(token.accessTokenExpiresAt) : null,
          refresh_expires_at: token.refreshTokenExpiresAt ? fromWall(token.refreshTokenExpiresAt) : null,
          created_at: ctx.now(),
        })
        .execute();
      return { ...token, scope: abilities, client, user, authorizationCode: undefined };
    },

    async getAccessToken(accessToken) {
      const row = await ctx.db.selectFrom('api_tokens').selectAll().where('token_hash', '=', hashToken(accessToken)).where('kind', '=', 'oauth').where('revoked_at', 'is', null).executeTakeFirst();
      const client = row?.client_id ? await clientByDbId(row.client_id) : null;
      if (!row || !client) return null;
      return { accessToken, accessTokenExpiresAt: row.expires_at ? toWall(row.expires_at) : undefined, scope: row.abilities, client, user: { id: row.user_id } };
    },

    async getRefreshToken(refreshToken) {
      const row = await ctx.db.selectFrom('api_tokens').selectAll().where('refresh_hash', '=', hashToken(refreshToken)).where('revoked_at', 'is', null).executeTakeFirst();
      const client = row?.client_id ? await clientByDbId(row.client_id) : null;
      if (!row || !client) return null;
      return { refreshToken, refreshTokenExpiresAt: row.refresh_expires_at ? toWall(row.refresh_expires_at) : undefined, scope: row.abilities, client, user: { id: row.user_id } };
    },

    async revokeToken(token) {
      // Refreshing retires the whole old pair: its access token stops working too.
      const result = await ctx.db
        .updateTable('api_tokens')
        .set({ revoked_at: ctx.now() })
        .where('refresh_hash', '=', hashToken(token.refreshToken))
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}
