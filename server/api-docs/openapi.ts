import { z, type ZodType } from 'zod';
import type { RegisteredRoute } from '../app';
import { isApiRoute, routeAccess, type RouteAccess } from '../../schema/route-access';
import { API_ABILITIES } from '../../schema/api-abilities';
import { requiredAbility } from '../developer/abilities';
import { CATALOG } from './catalog';
import type { RouteDocs } from './route-docs';
import { API_GUIDE } from './guide';

/**
 * The OpenAPI 3.1 document of the API (decision 0146), built from the routes the app registered:
 * every /api and /apps route is in it, described by its own `config.docs` or by the catalogue,
 * with the zod schemas it validates with turned into JSON Schema by zod (`z.toJSONSchema`).
 */

type JsonSchema = Record<string, unknown>;

/** A zod schema as JSON Schema for the request side; never throws (an unusual schema becomes `{}`). */
export function jsonSchemaOf(schema: ZodType): JsonSchema {
  try {
    const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    return rest;
  } catch {
    return {};
  }
}

/** Fastify's `/api/:teamId/items/:id` and `/api/files/*` as OpenAPI paths with their parameter names. */
export function openApiPath(url: string): { path: string; params: string[] } {
  const params: string[] = [];
  const path = url
    .split('/')
    .map((segment) => {
      if (segment === '*') {
        params.push('path');
        return '{path}';
      }
      if (segment.startsWith(':')) {
        params.push(segment.slice(1));
        return `{${segment.slice(1)}}`;
      }
      return segment;
    })
    .join('/');
  return { path, params };
}

const PARAM_TEXT: Record<string, string> = {
  teamId: 'The workspace id.',
  id: 'The record’s id.',
  boardId: 'The board (its root folder id).',
  itemId: 'The item’s id.',
  memberId: 'The member’s user id.',
  hookId: 'The webhook’s id (client-chosen on create).',
  clientId: 'The OAuth app’s client id.',
  appId: 'The realtime app id.',
  path: 'The file’s path.',
};

function queryParameters(schema: ZodType) {
  const json = jsonSchemaOf(schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: json.required?.includes(name) ?? false,
    schema: property,
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
  }));
}

function whoMayCall(access: RouteAccess | undefined): string {
  if (!access) return '';
  const callers: Record<RouteAccess['caller'], string> = {
    anyone: 'Anyone (signed in or not).',
    'signed-in': 'Any signed-in user.',
    member: 'A member of the workspace.',
    owner: 'The workspace’s owner.',
    'owner-or-admin': 'The workspace’s owner or an admin.',
    'app-signature': 'The realtime app, with a signed request.',
  };
  const permission = access.permission ? ` Needs the \`${access.permission}\` permission${access.on ? ` on the ${access.on}` : ''}.` : '';
  return callers[access.caller] + permission;
}

function security(docs: RouteDocs | undefined, access: RouteAccess | undefined, ability: string) {
  const auth = docs?.auth ?? (access?.caller === 'anyone' ? 'optional-bearer' : access?.caller === 'app-signature' ? 'app-signature' : 'bearer');
  const bearer = ability === 'session' ? [{ bearerAuth: [] }] : [{ bearerAuth: [] }, { oauth2: [ability] }];
  switch (auth) {
    case 'none':
    case 'app-signature':
      return [];
    case 'client':
      return [{ clientBasic: [] }, {}];
    case 'optional-bearer':
      return [...bearer, {}];
    default:
      return bearer;
  }
}

export interface OpenApiOptions {
  version: string;
  serverUrl?: string;
}

/** The routes with neither their own docs nor a catalogue entry (the docs test lists them). */
export function undocumentedRoutes(routes: readonly RegisteredRoute[]): string[] {
  return routes.filter((r) => r.method !== 'HEAD' && isApiRoute(r.url) && !r.docs && !CATALOG[`${r.method} ${r.url}`]).map((r) => `${r.method} ${r.url}`);
}

export function buildOpenApiDocument(routes: readonly RegisteredRoute[], options: OpenApiOptions) {
  const paths: Record<string, Record<string, unknown>> = {};
  const tags = new Set<string>();
  for (const route of routes) {
    if (route.method === 'HEAD' || !isApiRoute(route.url)) continue;
    const key = `${route.method} ${route.url}`;
    const docs = route.docs ?? CATALOG[key];
    const access = routeAccess(route.method, route.url);
    const ability = requiredAbility(route.method, route.url);
    const { path, params } = openApiPath(route.url);
    const tag = docs?.tag ?? route.url.split('/')[2] ?? 'api';
    tags.add(tag);
    const isOAuth = route.url.startsWith('/api/oauth/');
    const abilityText = ability === 'session' ? 'API tokens: not accepted (a signed-in session only).' : `API tokens: need the \`${ability}\` ability.`;
    const operation: Record<string, unknown> = {
      operationId: `${route.method.toLowerCase()}${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      summary: docs?.summary ?? key,
      description: [docs?.description, whoMayCall(access), access?.caller === 'app-signature' ? '' : abilityText].filter(Boolean).join('\n\n'),
      tags: [tag],
      parameters: [
        ...params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' }, description: PARAM_TEXT[name] ?? name })),
        ...(docs?.query ? queryParameters(docs.query) : []),
      ],
      responses: {
        [String(docs?.status ?? 200)]: {
          description: 'Success',
          ...(docs?.response ? { content: { 'application/json': { schema: jsonSchemaOf(docs.response) } } } : {}),
        },
        '4XX': { description: isOAuth ? 'Refused (RFC 6749 error)' : 'Refused', content: { 'application/json': { schema: { $ref: isOAuth ? '#/components/schemas/OAuthError' : '#/components/schemas/Error' } } } },
      },
      security: security(docs, access, ability),
      'x-cairn-ability': ability,
    };
    if (docs?.body) {
      const bodyType = docs.bodyType ?? 'application/json';
      const schema = jsonSchemaOf(docs.body);
      operation.requestBody = { required: true, content: bodyType === 'application/x-www-form-urlencoded' ? { [bodyType]: { schema }, 'application/json': { schema } } : { [bodyType]: { schema } } };
    } else if (docs?.bodyType === 'multipart/form-data') {
      operation.requestBody = { required: true, content: { 'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } } } };
    }
    (paths[path] ??= {})[route.method.toLowerCase()] = operation;
  }
  const scopes = Object.fromEntries(API_ABILITIES.map((ability) => [ability, ABILITY_TEXT[ability]]));
  return {
    openapi: '3.1.0',
    info: { title: 'Cairn API', version: options.version, description: API_GUIDE },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    tags: [...tags].sort().map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'A personal access token (`cairn_pat_…`), an OAuth access token (`cairn_oat_…`) or a session’s access token.' },
        oauth2: {
          type: 'oauth2',
          description: 'Authorisation code with PKCE (S256 required). Scopes are the token abilities.',
          flows: { authorizationCode: { authorizationUrl: '/oauth/authorize', tokenUrl: '/api/oauth/token', refreshUrl: '/api/oauth/token', scopes } },
        },
        clientBasic: { type: 'http', scheme: 'basic', description: 'An OAuth app’s client id and secret.' },
      },
      schemas: {
        Error: { type: 'object', required: ['message'], properties: { message: { type: 'string' }, type: { type: 'string' }, data: {} } },
        OAuthError: { type: 'object', required: ['error'], properties: { error: { type: 'string' }, error_description: { type: 'string' }, redirect: { type: 'string', description: 'Where to send the user back with the error (authorisation requests only).' } } },
      },
    },
  };
}

export const ABILITY_TEXT: Record<(typeof API_ABILITIES)[number], string> = {
  read: 'Read what the user can read (every GET but webhooks).',
  write: 'Create, change and delete records the user may change.',
  hooks: 'Manage webhooks and read their logs.',
  admin: 'Workspace administration: settings, members, roles, permissions; also folder saves that change permission entries, members, hidden or public.',
  billing: 'Subscriptions, payments, payment cards, invoices and lifetime codes.',
};
