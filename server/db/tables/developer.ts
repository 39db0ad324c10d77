import type { Generated, NullableTimestamp, Timestamp } from '../types';

/** Personal access tokens, OAuth apps, codes and app tokens (migration 0145, decision 0145). */
export interface DeveloperTables {
  oauth_clients: {
    id: Generated<number>;
    client_id: string;
    secret_hash: string;
    user_id: number;
    name: string;
    redirect_uris: string[];
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  oauth_codes: {
    code_hash: string;
    client_id: number;
    user_id: number;
    redirect_uri: string;
    abilities: string[];
    code_challenge: string;
    code_challenge_method: string;
    expires_at: Timestamp;
    used_at: NullableTimestamp;
    created_at: Timestamp;
  };
  api_tokens: {
    id: Generated<number>;
    user_id: number;
    kind: 'personal' | 'oauth';
    name: string;
    client_id: number | null;
    code_hash: string | null;
    token_hash: string;
    refresh_hash: string | null;
    abilities: string[];
    expires_at: NullableTimestamp;
    refresh_expires_at: NullableTimestamp;
    last_used_at: NullableTimestamp;
    revoked_at: NullableTimestamp;
    created_at: Timestamp;
  };
}
