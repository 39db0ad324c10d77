import type { AppContext } from '../context';
import { verifyPassword } from '../accounts/password';
import { DEMO_MEMBERS } from '../workspaces/demo';
import { DEMO_EMAIL, DEMO_PASSWORD } from './seed';

/**
 * Demo accounts that still sign in with the published demo password. A database seeded before
 * demo data was kept out of production still has them; main.ts warns at every start where the
 * server does not seed (nothing is deleted: they may own real work by now).
 */
export async function demoAccountsWithPublishedPassword(ctx: AppContext): Promise<string[]> {
  const emails = [DEMO_EMAIL, ...DEMO_MEMBERS.map((member) => member.email)];
  const rows = await ctx.db.selectFrom('users').select(['email', 'password_hash']).where('email', 'in', emails).execute();
  const open: string[] = [];
  for (const row of rows) {
    if (row.password_hash && (await verifyPassword(DEMO_PASSWORD, row.password_hash))) open.push(row.email);
  }
  return open;
}
