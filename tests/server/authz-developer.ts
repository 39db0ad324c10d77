import { createPersonalToken } from '../../server/developer/api-tokens';
import { registerApp } from '../../server/developer/oauth-clients';
import { hashToken } from '../../server/auth/tokens';
import type { MatrixRole, World } from './authz-fixtures';

/**
 * The authorisation matrix calls a developer route (`/api/me/tokens/:id`, `/api/me/oauth-apps/:id`,
 * `/api/me/applications/:clientId`, `/api/me/sso-links/:id`) on a record of the caller's own, made
 * before each call, since these routes answer 404 for anyone else's (there is no one else's to name).
 */
export async function developerFixtureUrl(w: World, who: MatrixRole, url: string): Promise<string> {
  if (!/^\/api\/me\/(tokens|oauth-apps|applications|sso-links)\/:/.test(url)) return url;
  const userId = who === 'anonymous' ? w.users.owner.user.id : w.users[who].user.id;
  const now = w.ctx.now();
  if (url.startsWith('/api/me/sso-links/')) {
    const link = await w.ctx.db.insertInto('sso_identity_links').values({ user_id: userId, issuer: 'https://idp.matrix.test', subject: `matrix-${userId}-${now.getTime()}-${Math.random()}`, created_at: now }).returning('id').executeTakeFirstOrThrow();
    return url.replace(':id', String(link.id));
  }
  if (url.startsWith('/api/me/tokens/')) {
    const token = await createPersonalToken(w.ctx.db, userId, { name: 'matrix', abilities: ['read'], expiresAt: null }, now);
    return url.replace(':id', String(token.id));
  }
  const app = await registerApp(w.ctx.db, userId, { name: 'Matrix app', redirect_uris: ['https://matrix.test/callback'] }, now);
  if (url.startsWith('/api/me/oauth-apps/')) return url.replace(':id', String(app.id));
  // An app the caller authorised: one live token of theirs for it.
  await w.ctx.db
    .insertInto('api_tokens')
    .values({ user_id: userId, kind: 'oauth', name: app.name, client_id: app.id, token_hash: hashToken(`matrix-${app.client_id}`), abilities: ['read'], expires_at: new Date(now.getTime() + 3600_000), created_at: now })
    .execute();
  return url.replace(':clientId', app.client_id);
}
