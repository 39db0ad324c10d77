import type { AppContext } from '../context';
import { seedDemoUser } from '../accounts/demo';
import { seedDemoWorkspace } from '../workspaces/demo';
import { seedDemoBoard } from '../sync/demo';

export const DEMO_EMAIL = 'demo@cairn.local';
export const DEMO_PASSWORD = 'demo-password';

/**
 * Creates the demo user, a workspace with a member of every role, and a board with a few items,
 * once (first start). Returns the login to print. Each module extends this as it lands.
 */
export async function seedDemo(ctx: AppContext): Promise<{ email: string; password: string }> {
  await seedDemoUser(ctx, { email: DEMO_EMAIL, password: DEMO_PASSWORD });
  await seedDemoWorkspace(ctx, { email: DEMO_EMAIL, password: DEMO_PASSWORD });
  await seedDemoBoard(ctx);
  return { email: DEMO_EMAIL, password: DEMO_PASSWORD };
}
