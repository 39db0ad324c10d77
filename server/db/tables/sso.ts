import type { ColumnType } from 'kysely';
import type { Json, Timestamp } from '../types';

/** Tables of the single sign-on module (migration 0270_sso, decision 0270). */
export interface SsoTables {
  /** One row per workspace that saved single sign-on settings. */
  sso_settings: {
    team_id: number;
    oidc_issuer: string | null;
    oidc_client_id: string | null;
    /** Sealed with the server's secrets key (server/secret-box.ts). */
    oidc_client_secret: string | null;
    oidc_enabled: boolean;
    /** Members of an allowed domain must sign in through the provider (migration 0271). */
    enforce_sso: ColumnType<boolean, boolean | undefined, boolean>;
    allowed_domains: Json<string[]>;
    saml_entity_id: string | null;
    saml_sso_url: string | null;
    saml_certificate: string | null;
    updated_by: number | null;
    updated_at: Timestamp;
    /** The TXT value that proves a domain (`cairn-verification=<token>`, migration 0272). */
    domain_token: ColumnType<string | null, string | null | undefined, string | null>;
    /** Allowed domains whose TXT record was found: only these sign in or are enforced. */
    verified_domains: ColumnType<string[], string | undefined, string>;
  };
  /** An account's own link to a provider identity (migration 0272, issue #26 N1). */
  sso_identity_links: {
    id: ColumnType<number, never, never>;
    user_id: number;
    issuer: string;
    subject: string;
    created_at: Timestamp;
  };
  /** A sign-in in flight: used once by the callback, gone after `expires_at`. */
  sso_login_states: {
    id_hash: string;
    team_id: number;
    state: string;
    nonce: string;
    code_verifier: string;
    intended: string | null;
    expires_at: Timestamp;
    /** 'sign-in', 'link' (of `user_id`, signed in) or 'second-factor' (of `user_id`, after a sign-in). */
    purpose: ColumnType<string, string | undefined, string>;
    user_id: ColumnType<number | null, number | null | undefined, number | null>;
  };
}
