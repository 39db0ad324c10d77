import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/types';

/** The apps a user has authorised (issue 14, `/profile/applications`): one entry per app holding a live token. */
export interface AuthorisedAppView {
  client_id: string;
  name: string;
  abilities: string[];
  authorised_at: string;
  last_used_at: string | null;
}

/** A token row that still grants something: not revoked, and its access or refresh token unexpired. */
const live = (now: Date) => sql<boolean>`t.revoked_at is null and (t.expires_at > ${now} or t.refresh_expires_at > ${now})`;

export async function listAuthorisedApps(db: Kysely<Database>, userId: number, now: Date): Promise<AuthorisedAppView[]> {
  const rows = await db
    .selectFrom('api_tokens as t')
    .innerJoin('oauth_clients as c', 'c.id', 't.client_id')
    .select(['c.client_id', 'c.name', 't.abilities', 't.created_at', 't.last_used_at'])
    .where('t.user_id', '=', userId)
    .where('t.kind', '=', 'oauth')
    .where(live(now))
    .orderBy('c.name')
    .orderBy('t.id')
    .execute();
  const byClient = new Map<string, { name: string; abilities: Set<string>; authorisedAt: Date; lastUsedAt: Date | null }>();
  for (const row of rows) {
    const entry = byClient.get(row.client_id) ?? { name: row.name, abilities: new Set<string>(), authorisedAt: row.created_at, lastUsedAt: null };
    row.abilities.forEach((ability) => entry.abilities.add(ability));
    if (row.created_at < entry.authorisedAt) entry.authorisedAt = row.created_at;
    if (row.last_used_at && (!entry.lastUsedAt || row.last_used_at > entry.lastUsedAt)) entry.lastUsedAt = row.last_used_at;
    byClient.set(row.client_id, entry);
  }
  return [...byClient].map(([clientId, entry]) => ({
    client_id: clientId,
    name: entry.name,
    abilities: [...entry.abilities].sort(),
    authorised_at: entry.authorisedAt.toISOString(),
    last_used_at: entry.lastUsedAt ? entry.lastUsedAt.toISOString() : null,
  }));
}

/** Revokes every token the user gave the app, and its unused codes; false when it held none. */
export async function revokeAuthorisedApp(db: Kysely<Database>, userId: number, clientId: string, now: Date): Promise<boolean> {
  const client = await db.selectFrom('oauth_clients').select('id').where('client_id', '=', clientId).executeTakeFirst();
  if (!client) return false;
  const result = await db
    .updateTable('api_tokens')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('client_id', '=', client.id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  await db.updateTable('oauth_codes').set({ used_at: now }).where('user_id', '=', userId).where('client_id', '=', client.id).where('used_at', 'is', null).execute();
  return Number(result.numUpdatedRows) > 0;
}
