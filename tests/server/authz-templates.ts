import { nanoid } from 'nanoid';
import { builtinContent, BUILTIN_FILES } from '../../server/templates/builtin';
import type { MatrixRole, World } from './authz-fixtures';

/**
 * The authorisation matrix calls the template routes on a template the caller may reach: their
 * own for `/api/me/templates/:templateId` (made before each call, since a role's delete removes
 * it and others' answer 404), a built-in one for reading and using (everyone signed in may).
 */
export async function templateFixtureUrl(w: World, who: MatrixRole, url: string): Promise<string> {
  if (!url.includes(':templateId')) return url;
  if (!url.startsWith('/api/me/templates/')) return url.replace(':templateId', BUILTIN_FILES[0]!.id);
  const ownerId = who === 'anonymous' ? w.users.owner.user.id : w.users[who].user.id;
  const now = w.ctx.now();
  const id = nanoid();
  await w.ctx.db
    .insertInto('templates')
    .values({ id, owner_id: ownerId, source_team_id: null, name: 'Matrix template', description: '', cover_url: null, tags: '[]', with_items: false, link_shared: false, content: JSON.stringify(builtinContent(BUILTIN_FILES[0]!)), created_at: now, updated_at: now })
    .execute();
  return url.replace(':templateId', id);
}
