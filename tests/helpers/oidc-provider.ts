import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

/**
 * A small OpenID Connect provider for tests, in process on a loopback port: real discovery
 * document, JWKS, authorisation endpoint (code flow, PKCE S256 required), token endpoint
 * (client_secret_post or client_secret_basic) issuing RS256-signed ID tokens, and userinfo.
 * The authorisation endpoint signs in `user` at once (no login page); tests change `user` or ask
 * for an error answer between runs.
 */
export interface ProviderUser {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export interface OidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who the next authorisation signs in. */
  user: ProviderUser;
  /** When set, the next authorisation answers this OAuth error instead of a code. */
  refuseWith: string | null;
  /** Put claims in the ID token (true) or leave e-mail to the userinfo endpoint (false). */
  emailInIdToken: boolean;
  /** Requests seen, by path (e.g. '/token'). */
  hits: Map<string, number>;
  /** Follows the authorisation URL the app got and answers the redirect back to the app (its query). */
  authorize(url: string): Promise<URL>;
  close(): Promise<void>;
}

interface CodeGrant {
  clientId: string;
  redirectUri: string;
  challenge: string;
  nonce: string | null;
  user: ProviderUser;
  expires: number;
}

export async function startOidcProvider(opts: { clientId?: string; clientSecret?: string } = {}): Promise<OidcProvider> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const kid = crypto.randomBytes(8).toString('hex');
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const codes = new Map<string, CodeGrant>();
  const accessTokens = new Map<string, ProviderUser>();
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider: OidcProvider = {
    issuer,
    clientId: opts.clientId ?? 'cairn-test-client',
    clientSecret: opts.clientSecret ?? crypto.randomBytes(24).toString('base64url'),
    user: { sub: 'user-1', email: 'ada@example.test', email_verified: true, name: 'Ada Lovelace' },
    refuseWith: null,
    emailInIdToken: true,
    hits: new Map(),
    async authorize(url) {
      const res = await fetch(url, { redirect: 'manual' });
      const location = res.headers.get('location');
      if (res.status !== 302 || !location) throw new Error(`authorize answered ${res.status}: ${await res.text()}`);
      return new URL(location);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  };
  const readForm = (req: http.IncomingMessage) =>
    new Promise<URLSearchParams>((resolve) => {
      let text = '';
      req.on('data', (chunk) => (text += chunk));
      req.on('end', () => resolve(new URLSearchParams(text)));
    });
  const claimsOf = (user: ProviderUser) => ({
    ...(user.email !== undefined ? { email: user.email } : {}),
    ...(user.email_verified !== undefined ? { email_verified: user.email_verified } : {}),
    ...(user.name !== undefined ? { name: user.name } : {}),
  });

  server.on('request', async (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    provider.hits.set(url.pathname, (provider.hits.get(url.pathname) ?? 0) + 1);
    if (req.method === 'GET' && url.pathname === '/.well-known/openid-configuration') {
      return json(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        userinfo_endpoint: `${issuer}/userinfo`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        scopes_supported: ['openid', 'email', 'profile'],
        token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
        code_challenge_methods_supported: ['S256'],
        grant_types_supported: ['authorization_code'],
        authorization_response_iss_parameter_supported: true,
      });
    }
    if (req.method === 'GET' && url.pathname === '/jwks') return json(res, 200, { keys: [jwk] });
    if (req.method === 'GET' && url.pathname === '/authorize') {
      const q = url.searchParams;
      const redirectUri = q.get('redirect_uri');
      if (q.get('client_id') !== provider.clientId || !redirectUri) return json(res, 400, { error: 'invalid_request', error_description: 'unknown client or no redirect_uri' });
      const back = new URL(redirectUri);
      const state = q.get('state');
      if (state) back.searchParams.set('state', state);
      back.searchParams.set('iss', issuer);
      const problem =
        provider.refuseWith ??
        (q.get('response_type') !== 'code' ? 'unsupported_response_type' : !q.get('scope')?.split(' ').includes('openid') ? 'invalid_scope' : q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge') ? 'invalid_request' : null);
      if (problem) {
        back.searchParams.set('error', problem);
        back.searchParams.set('error_description', problem === 'access_denied' ? 'The user declined.' : 'Refused by the test provider.');
      } else {
        const code = crypto.randomBytes(24).toString('base64url');
        codes.set(code, { clientId: provider.clientId, redirectUri, challenge: q.get('code_challenge')!, nonce: q.get('nonce'), user: { ...provider.user }, expires: Date.now() + 60_000 });
        back.searchParams.set('code', code);
      }
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    if (req.method === 'POST' && url.pathname === '/token') {
      const form = await readForm(req);
      let clientId = form.get('client_id');
      let secret = form.get('client_secret');
      const basic = req.headers.authorization?.match(/^Basic (.+)$/);
      if (basic) [clientId, secret] = Buffer.from(basic[1]!, 'base64').toString().split(':').map(decodeURIComponent) as [string, string];
      if (clientId !== provider.clientId || secret !== provider.clientSecret) return json(res, 401, { error: 'invalid_client' });
      const grant = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
      if (form.get('grant_type') !== 'authorization_code' || !grant || grant.expires < Date.now() || grant.redirectUri !== form.get('redirect_uri') || grant.challenge !== challenge) {
        return json(res, 400, { error: 'invalid_grant' });
      }
      const accessToken = crypto.randomBytes(24).toString('base64url');
      accessTokens.set(accessToken, grant.user);
      const idToken = await new SignJWT({ ...(grant.nonce ? { nonce: grant.nonce } : {}), ...(provider.emailInIdToken ? claimsOf(grant.user) : {}) })
        .setProtectedHeader({ alg: 'RS256', kid })
        .setIssuer(issuer)
        .setAudience(provider.clientId)
        .setSubject(grant.user.sub)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(privateKey);
      return json(res, 200, { access_token: accessToken, token_type: 'Bearer', expires_in: 300, id_token: idToken, scope: 'openid email profile' });
    }
    if (req.method === 'GET' && url.pathname === '/userinfo') {
      const user = accessTokens.get(req.headers.authorization?.replace(/^Bearer /, '') ?? '');
      if (!user) return json(res, 401, { error: 'invalid_token' });
      return json(res, 200, { sub: user.sub, ...claimsOf(user) });
    }
    json(res, 404, { error: 'not_found' });
  });
  return provider;
}
