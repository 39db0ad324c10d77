/**
 * What an API token may do (personal access tokens and OAuth access tokens; decision 0145). A
 * token acts as its user, so every permission check still applies: abilities only narrow what the
 * user could do, never widen it. The server maps each route to the one ability it needs
 * (server/developer/abilities.ts); OAuth scopes are these same names, space-separated.
 */
export const API_ABILITIES = ['read', 'write', 'hooks', 'admin', 'billing'] as const;
export type ApiAbility = (typeof API_ABILITIES)[number];

/** Abilities a personal token gets when none are asked for. */
export const DEFAULT_API_ABILITIES: readonly ApiAbility[] = ['read', 'write'];

export function isApiAbility(value: string): value is ApiAbility {
  return (API_ABILITIES as readonly string[]).includes(value);
}

/** Personal access tokens start with this, OAuth access and refresh tokens with theirs (secret scanners and the guard tell them apart). */
export const TOKEN_PREFIX = { personal: 'cairn_pat_', oauth: 'cairn_oat_', refresh: 'cairn_ort_', clientSecret: 'cairn_cs_' } as const;
