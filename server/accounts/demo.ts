import type { AppContext } from '../context';
import type { UserRow } from '../auth/guard';
import { createUser, findUserByEmail } from './service';

/** The demo account (verified, with its free subscription), created once; a second run finds it. */
export async function seedDemoUser(ctx: AppContext, demo: { email: string; password: string }): Promise<UserRow> {
  return (await findUserByEmail(ctx.db, demo.email)) ?? (await createUser(ctx, { email: demo.email, name: 'Demo User', password: demo.password, verified: true }));
}
