import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';

/** The sign-in refusals of server/sso/login.ts, by their `type`, in the user's language. */
export const ssoErrorMessages: Record<string, MessageDescriptor> = {
  sso_not_configured: msg`Single sign-on is not set up for this workspace or e-mail domain.`,
  sso_ambiguous: msg`Several workspaces sign in this e-mail domain with single sign-on. Use the sign-in link of your workspace.`,
  sso_state_mismatch: msg`This sign-in could not be matched to the one started in this browser. Please start again.`,
  sso_provider_error: msg`The identity provider refused the sign-in.`,
  sso_failed: msg`The answer of the identity provider could not be verified.`,
  sso_email_not_verified: msg`The identity provider did not confirm that your e-mail address is verified.`,
  sso_domain_not_allowed: msg`Your e-mail domain is not allowed to sign in to this workspace with single sign-on.`,
  sso_not_member: msg`An account with this e-mail already exists and is not a member of this workspace. Sign in with your password, or ask the workspace owner to invite you.`,
  sso_not_linked: msg`An account with this e-mail already exists. Sign in with your password and link this identity provider in your security settings first.`,
  sso_linked_elsewhere: msg`This identity is already linked to another account.`,
  sso_link_not_member: msg`You can link only the identity provider of a workspace you belong to.`,
  sso_member_limit: msg`The workspace has reached the maximum number of members on its plan. Contact the workspace owner to upgrade.`,
  sso_discovery_failed: msg`The identity provider could not be reached or did not answer with an OpenID Connect configuration.`,
};
