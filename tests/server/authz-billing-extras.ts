import type { MatrixRole, World } from './authz-fixtures';
import { generateLtdCodes } from '../../server/billing/ltd';

/**
 * The authorisation matrix calls the lifetime-deal code routes (`/api/ltd-codes/:code[/redeem]`)
 * with a fresh unused code, made before each call: an unknown code is a 404 (decision 0255).
 */
export async function billingExtrasFixtureUrl(w: World, _who: MatrixRole, url: string): Promise<string> {
  if (!url.startsWith('/api/ltd-codes/:code')) return url;
  const [code] = await generateLtdCodes(w.ctx.db, 1, { now: w.ctx.now() });
  return url.replace(':code', code);
}
