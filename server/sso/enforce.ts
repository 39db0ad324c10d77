import type { AppContext } from '../context';
import type { UserRow } from '../auth/guard';
import { ApiError } from '../http/errors';
import { normalizeEmail } from '../accounts/service';
import { verifiedDomains } from './settings';

export const SSO_REQUIRED = 'Your workspace signs in with single sign-on. Use “Sign in with single sign-on”.';

/**
 * "Require single sign-on" (decision 0270): a verified member of a workspace whose enabled,
 * enforcing settings allow the member's e-mail domain (one proven by DNS, N1) may not sign in with a password. The owner
 * always may (the way back in when the provider fails). Answers the refusal to throw, or null.
 */
export async function ssoRequiredFor(ctx: AppContext, user: UserRow): Promise<ApiError | null> {
  const domain = normalizeEmail(user.email).split('@').pop() ?? '';
  const rows = await ctx.db
    .selectFrom('sso_settings')
    .innerJoin('teams', 'teams.id', 'sso_settings.team_id')
    .innerJoin('team_members', (join) => join.onRef('team_members.team_id', '=', 'sso_settings.team_id').on('team_members.user_id', '=', user.id))
    .select(['sso_settings.team_id', 'sso_settings.allowed_domains', 'sso_settings.verified_domains', 'teams.owner_id', 'team_members.verified_at'])
    .where('sso_settings.oidc_enabled', '=', true)
    .where('sso_settings.enforce_sso', '=', true)
    .execute();
  const required = rows.find((r) => r.owner_id !== user.id && r.verified_at !== null && verifiedDomains(r).includes(domain));
  return required ? new ApiError(422, SSO_REQUIRED, 'sso_required', { team_id: required.team_id }) : null;
}
