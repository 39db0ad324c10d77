import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { isApiRoute } from '../../schema/route-access';
import { buildOpenApiDocument, openApiPath, undocumentedRoutes } from '../../server/api-docs/openapi';

/** The OpenAPI document and its page (issue 14; decision 0146). */
describe('API documentation', () => {
  let server: TestServer;
  let doc: any;

  beforeAll(async () => {
    server = await createTestServer();
    const res = await api(server.app, 'GET', '/api/docs/openapi.json');
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });
  afterAll(() => server.close());

  it('is an OpenAPI 3.1 document holding every API route the app registers, each with a summary', () => {
    expect(doc.openapi).toBe('3.1.0');
    const routes = server.app.registeredRoutes.filter((r) => r.method !== 'HEAD' && isApiRoute(r.url));
    expect(routes.length).toBeGreaterThan(100);
    const missing = routes.filter((r) => !doc.paths[openApiPath(r.url).path]?.[r.method.toLowerCase()]).map((r) => `${r.method} ${r.url}`);
    expect(missing, 'routes missing from the document').toEqual([]);
    // A route needs words: its own `config.docs` or an entry in server/api-docs/catalog.ts.
    expect(undocumentedRoutes(server.app.registeredRoutes), 'routes without a description').toEqual([]);
    const operations = Object.values(doc.paths).flatMap((methods: any) => Object.values(methods)) as any[];
    expect(operations.length).toBe(routes.length);
    for (const op of operations) expect(op.summary).not.toMatch(/^(GET|PUT|POST|DELETE|PATCH) \//);
  });

  it('declares every path parameter, and names the ability and security of each operation', () => {
    for (const [path, methods] of Object.entries(doc.paths) as [string, Record<string, any>][]) {
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      for (const op of Object.values(methods)) {
        expect(op.parameters.filter((p: any) => p.in === 'path').map((p: any) => p.name)).toEqual(inPath);
        expect(['read', 'write', 'hooks', 'admin', 'billing', 'session']).toContain(op['x-cairn-ability']);
        expect(Array.isArray(op.security)).toBe(true);
      }
    }
    expect(doc.paths['/api/me/tokens'].post['x-cairn-ability']).toBe('session');
    expect(doc.paths['/api/{teamId}/items'].get['x-cairn-ability']).toBe('read');
    // Public boards: reading items needs no token; saving one needs a token with `write`.
    expect(doc.paths['/api/{teamId}/items'].get.security).toEqual([{ bearerAuth: [] }, { oauth2: ['read'] }, {}]);
    expect(doc.paths['/api/{teamId}/items/{id}'].put.security).toEqual([{ bearerAuth: [] }, { oauth2: ['write'] }]);
    expect(doc.components.securitySchemes.oauth2.flows.authorizationCode.tokenUrl).toBe('/api/oauth/token');
  });

  it('turns the zod schemas routes validate with into JSON Schema: bodies, queries, sync records', () => {
    const create = doc.paths['/api/me/tokens'].post;
    const body = create.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['name']);
    expect(body.properties.abilities.items.enum).toEqual(['read', 'write', 'hooks', 'admin', 'billing']);
    expect(create.responses['201'].content['application/json'].schema.properties.data.properties.token).toEqual({ type: 'string' });
    const login = doc.paths['/api/auth/login'].post.requestBody.content['application/json'].schema;
    expect(login.properties).toHaveProperty('email');
    const item = doc.paths['/api/{teamId}/items/{id}'].put.requestBody.content['application/json'].schema;
    expect(item.properties).toHaveProperty('row_version');
    expect(item.additionalProperties).toBe(false);
    const token = doc.paths['/api/oauth/token'].post.requestBody.content;
    expect(token['application/x-www-form-urlencoded'].schema.properties.grant_type.enum).toEqual(['authorization_code', 'refresh_token']);
    const activity = doc.paths['/api/{teamId}/activity'].get.parameters.map((p: any) => p.name);
    expect(activity).toEqual(expect.arrayContaining(['board_id', 'item_id', 'limit']));
    // Webhooks (another module's routes) are in, with their body and the hooks ability.
    const hook = doc.paths['/api/{teamId}/hooks/{hookId}'].put;
    expect(Object.keys(hook.requestBody.content['application/json'].schema.properties)).toEqual(expect.arrayContaining(['url', 'events']));
    expect(hook['x-cairn-ability']).toBe('hooks');
    // The guide explains tokens, abilities, OAuth with PKCE and webhook signatures.
    expect(doc.info.description).toContain('Authorization: Bearer');
    expect(doc.info.description).toContain('code_challenge_method=S256');
    expect(doc.info.description).toContain('X-Cairn-Signature');
  });

  it('picks up a route that documents itself, with no catalogue entry', () => {
    const routes = [{ method: 'PUT', url: '/api/:teamId/widgets/:widgetId', docs: { summary: 'Save a widget', body: z.object({ size: z.number().int().min(1) }) } }];
    const built = buildOpenApiDocument(routes, { version: 'test' }) as any;
    const op = built.paths['/api/{teamId}/widgets/{widgetId}'].put;
    expect(op.summary).toBe('Save a widget');
    expect(op.requestBody.content['application/json'].schema.properties.size).toMatchObject({ type: 'integer', minimum: 1 });
    expect(undocumentedRoutes([{ method: 'GET', url: '/api/nowhere' }])).toEqual(['GET /api/nowhere']);
  });

  it('serves a browsable page within the Content-Security-Policy: no inline script or style', async () => {
    const page = await api(server.app, 'GET', '/api/docs');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(page.body).toContain('<script src="/api/docs/docs.js" defer></script>');
    expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(page.body).not.toMatch(/\sstyle=|<style/);
    expect(page.body).not.toMatch(/\son[a-z]+=/);
    const script = await api(server.app, 'GET', '/api/docs/docs.js');
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toContain('text/javascript');
    expect(script.body).not.toMatch(/\beval\(|new Function|innerHTML/);
    expect((await api(server.app, 'GET', '/api/docs/docs.css')).headers['content-type']).toContain('text/css');
  });
});
