import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../helpers/test-server';
import { ROUTE_ACCESS, type RouteAccess } from '../../schema/route-access';
import { API_ABILITIES, type ApiAbility } from '../../schema/api-abilities';
import { createPersonalToken } from '../../server/developer/api-tokens';
import { requiredAbility } from '../../server/developer/abilities';
import { buildWorld, restoreMemberships, type World } from './authz-fixtures';
import { callFor, expectedFor, judge, type Expected } from './authz-calls';

/**
 * The authorisation matrix over every API route, as API tokens (issue #26 part 11, N8; the
 * people's roles are in authz-matrix.test.ts): a token of the workspace owner holding ONE ability,
 * for each ability, and one holding them all. A token never does more than its owner may, nor more than its ability: the
 * expected answer is the owner's (computed from schema/route-access.ts and the permission model,
 * as the people's matrix does) when the route's ability (server/developer/abilities.ts) is the
 * token's, and 403 otherwise; no token passes a route that needs a signed-in session.
 */

/** Routes whose handler asks a token for more than the route table's ability, by what they do. */
const ASKS_MORE: Record<string, ApiAbility[]> = {
  // A move takes the board from everyone in its workspace and rewrites its member lists (N8).
  'POST /api/:teamId/boards/:boardId/move': ['write', 'admin'],
};
/** The tokens: one of each single ability, and one holding them all (what only several abilities together allow). */
const TOKENS: [string, readonly ApiAbility[]][] = [...API_ABILITIES.map((a): [string, ApiAbility[]] => [a, [a]]), ['all', API_ABILITIES]];

const entries = (Object.entries(ROUTE_ACCESS) as [string, RouteAccess][])
  // Deleting the workspace needs a session (tests/server/api-tokens.test.ts); a wrong answer here would take the world with it.
  .filter(([key]) => key !== 'DELETE /api/teams/:id');

describe('authorisation matrix: API tokens of each ability over every route', () => {
  let server: TestServer;
  let w: World;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    server = await createTestServer({ realtime: true });
    w = await buildWorld(server.app, server.ctx);
    for (const [name, abilities] of TOKENS) tokens[name] = (await createPersonalToken(server.ctx.db, w.users.owner.user.id, { name: `matrix ${name}`, abilities: [...abilities], expiresAt: null }, server.ctx.now())).token;
  }, 240_000);
  afterAll(() => server?.close());

  it.each(entries)('%s answers each token as its ability and its owner’s rights say', async (key, access) => {
    const [method, pattern] = key.split(' ', 2) as [string, string];
    const route = requiredAbility(method, pattern);
    const needed = ASKS_MORE[key] ?? (route === 'session' ? null : [route]);
    const problems: string[] = [];
    for (const [name, abilities] of TOKENS) {
      // The owner's call (its fixture records are made for each call), sent with the token instead.
      const { call, target, boardId } = await callFor(w, method, pattern, access, 'owner');
      const owners = await expectedFor(w, access, 'owner', target, boardId);
      // Routes signed by the realtime app or the payment provider answer a token like no signature at all (401).
      const expected: Expected = access.caller === 'app-signature' || (needed && needed.every((a) => abilities.includes(a))) ? owners : { allowed: false, status: 403 };
      const res = await server.app.inject({ method: call.method, url: call.url, headers: { authorization: `Bearer ${tokens[name]}` }, ...(call.body !== undefined ? { payload: call.body as object } : {}) });
      if (pattern.startsWith('/api/teams/:id')) await restoreMemberships(w);
      // A route open to visitors may not look at a token at all: a token without the ability gets a
      // 403, or at most what an anonymous visitor gets (never its owner's answer where a visitor is refused).
      if (access.caller === 'anyone' && !expected.allowed) {
        if (res.statusCode === 403) continue;
        const visitor = judge(await expectedFor(w, access, 'anonymous', target, boardId), res.statusCode, res.body);
        if (visitor) problems.push(`${name} (route needs ${needed?.join('+') ?? 'a session'}): more than a visitor gets: ${visitor} (${call.method} ${call.url}) ${res.body.slice(0, 160)}`);
        continue;
      }
      const problem = judge(expected, res.statusCode, res.body);
      if (problem) problems.push(`${name} (route needs ${needed?.join('+') ?? 'a session'}): ${problem} (${call.method} ${call.url}) ${res.body.slice(0, 160)}`);
    }
    expect(problems).toEqual([]);
  });
});
