import type { AppContext } from '../context';
import { createUser, findUserByEmail } from '../accounts/service';
import type { AssignableRole } from '../../schema/permissions';
import { ownedSubscriptions } from './subscriptions';

export const DEMO_WORKSPACE_NAME = 'Demo workspace';

/** One member of every role besides the owner; they sign in with the demo password. */
export const DEMO_MEMBERS: { email: string; name: string; role: AssignableRole }[] = [
  { email: 'demo-admin@cairn.local', name: 'Ada Admin', role: 'admin' },
  { email: 'demo-full@cairn.local', name: 'Finn Full', role: 'full-member' },
  { email: 'demo-restricted@cairn.local', name: 'Rita Restricted', role: 'restricted-member' },
];

/**
 * The demo workspace owned by the demo user, with a member of every role. Idempotent: a second run
 * finds what the first made. Creates the demo user too when the accounts seed has not.
 */
export async function seedDemoWorkspace(ctx: AppContext, demo: { email: string; password: string }): Promise<{ teamId: number; ownerId: number }> {
  const owner = (await findUserByEmail(ctx.db, demo.email)) ?? (await createUser(ctx, { email: demo.email, name: 'Demo User', password: demo.password, verified: true }));
  const now = ctx.now();
  let team = await ctx.db.selectFrom('teams').selectAll().where('owner_id', '=', owner.id).where('name', '=', DEMO_WORKSPACE_NAME).executeTakeFirst();
  if (!team) {
    const [subscription] = await ownedSubscriptions(ctx.db, owner.id, now);
    team = await ctx.db
      .insertInto('teams')
      .values({ name: DEMO_WORKSPACE_NAME, owner_id: owner.id, subscription_id: subscription!.id, photo_url: null, use_custom_logo: false, whitelabel_settings: null, domain: null, permissions: JSON.stringify({}), row_version: 1, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    await ctx.db.insertInto('team_members').values({ team_id: team.id, user_id: owner.id, role: 'owner', verified_at: now, invited_by: null, created_at: now }).execute();
  }
  for (const member of DEMO_MEMBERS) {
    const user = (await findUserByEmail(ctx.db, member.email)) ?? (await createUser(ctx, { email: member.email, name: member.name, password: demo.password, verified: true }));
    await ctx.db
      .insertInto('team_members')
      .values({ team_id: team.id, user_id: user.id, role: member.role, verified_at: now, invited_by: owner.id, created_at: now })
      .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
      .execute();
  }
  return { teamId: team.id, ownerId: owner.id };
}
