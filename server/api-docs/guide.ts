/**
 * The introduction of the OpenAPI document (its `info.description`, Markdown): what an integration
 * needs beyond the list of operations. Kept next to the generator so it ships with the server.
 */
export const API_GUIDE = `
Everything the Cairn web app does goes through this API. Paths start with \`/api\`; bodies are JSON
(\`Content-Type: application/json\`) unless an operation says otherwise.

## Authentication
Send \`Authorization: Bearer <token>\` on every call. Three kinds of token work:

- **Personal access token** (\`cairn_pat_…\`): create one in the app under *Profile → Developer →
  Access tokens* (or \`POST /api/me/tokens\` with a signed-in session). It is shown once; the
  server keeps only its SHA-256 hash. It can expire (\`expires_at\`) and be revoked at any time.
- **OAuth access token** (\`cairn_oat_…\`): what an app you register receives when a user allows it
  (see *OAuth* below). It lasts an hour; the refresh token (\`cairn_ort_…\`) buys a new pair.
- **Session token**: what the web app itself uses after signing in.

A token acts as its user: every permission of the workspace still applies, so a token never does
more than its user may. On top of that an API token carries **abilities**, and each operation
names the one it needs (\`x-cairn-ability\` and its description):

| ability | allows |
|---|---|
| \`read\` | every \`GET\` but webhooks |
| \`write\` | creating, changing and deleting records |
| \`hooks\` | webhooks and their logs, any method |
| \`admin\` | workspace settings, members, roles, permissions; also a folder save that changes its permission entries, members, hidden or public |
| \`billing\` | subscriptions, payments, payment cards, invoices and lifetime codes (reads too) |

Account and credential operations (signing in, tokens, OAuth apps, consent, email, password,
two-factor, deleting a workspace) take a session only: an API token gets 403 there. A revoked,
expired or unknown token gets **401** \`{"message": "…", "type": "unauthenticated"}\`; a token
without the ability gets **403** \`{"type": "unauthorized", "data": {"required": "write"}}\`.

## OAuth (authorisation code with PKCE)
1. Register an app (*Profile → Developer → OAuth apps*, or \`POST /api/me/oauth-apps\`) with its
   redirect URIs (https, or http to localhost). Note the client id and the secret (shown once).
2. Make a random \`code_verifier\` (43–128 characters) and \`code_challenge =
   BASE64URL(SHA-256(code_verifier))\`.
3. Send the user to \`/oauth/authorize?response_type=code&client_id=…&redirect_uri=…&scope=read%20write&state=…&code_challenge=…&code_challenge_method=S256\`.
   The user signs in if needed and sees a consent screen naming your app and the abilities.
4. On *Allow* the browser comes back to \`redirect_uri?code=…&state=…\`; on *Deny*, or when the
   request was wrong once the redirect URI is known good, with \`error=…&error_description=…\`.
5. Exchange the code within 5 minutes: \`POST /api/oauth/token\` (form or JSON) with
   \`grant_type=authorization_code\`, \`code\`, \`redirect_uri\`, \`code_verifier\`, and your client id
   and secret as HTTP Basic authentication (or \`client_id\`/\`client_secret\` in the body). The
   answer is \`{access_token, token_type: "Bearer", expires_in, refresh_token, scope}\`.
6. Refresh with \`grant_type=refresh_token&refresh_token=…\`: the old pair stops working.

Refusals follow RFC 6749: \`{"error": "invalid_grant", "error_description": "…"}\`. A code works
once; presenting it again also revokes the tokens it bought. Users see and revoke the apps they
allowed under *Profile → Applications* (\`GET/DELETE /api/me/applications\`).

## Webhooks
\`PUT /api/{teamId}/hooks/{hookId}\` with \`{url, events, active?}\` (needs the \`hooks\` ability and
the workspace's webhook permission). The create answer holds \`data.secret\` once. Each delivery is
a \`POST\` of \`{id, event, team_id, board_id, data, created_at}\` with \`X-Cairn-Event\`,
\`X-Cairn-Delivery\` (the same on every retry) and \`X-Cairn-Signature: sha256=<hex HMAC-SHA256(secret,
raw body)>\`; verify the signature over the raw body with a constant-time comparison. Answer 2xx
within 10 seconds; anything else is retried. \`GET …/logs\` lists deliveries, \`POST …/test\` sends one.

## Records and sync
Boards, folders, items, values, comments and the rest are *records* of synced collections under
\`/api/{teamId}/{collection}\` (the *Sync* operations). Ids are made by the client; every write sends
\`row_version\` one above the stored one, and a stale one answers 409 with the server's copy.
\`GET /api/{teamId}/changes?after=<cursor>\` pages through every change since a cursor, which is how
an integration keeps a copy current; \`POST /api/{teamId}/batch\` sends many writes in one call.

## Errors
Every refusal outside OAuth is \`{message, type?, data?}\`: 401 \`unauthenticated\`, 403
\`unauthorized\`, 404 \`not_found\`, 409 conflicts, 422 \`validation\` (\`data\` lists each field's
problem), 429 \`rate_limited\` with \`Retry-After\`.
`.trim();
