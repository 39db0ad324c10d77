import type { ZodType } from 'zod';

/**
 * What the OpenAPI document says about one route (decision 0146). A route carries it as
 * `config: { docs }` next to its handler, so a new module documents itself; routes registered
 * before this existed are described in catalog.ts. The schemas are the zod schemas the route
 * validates with, turned into JSON Schema by zod itself.
 */
export interface RouteDocs {
  summary: string;
  description?: string;
  /** Groups in the browsable page; by default the path's first segment after /api. */
  tag?: string;
  body?: ZodType;
  query?: ZodType;
  /** The success status when not 200. */
  status?: number;
  /** The 2xx answer's shape, when worth stating. */
  response?: ZodType;
  /** Media type of the body when not JSON (the OAuth token endpoint takes forms too). */
  bodyType?: 'application/json' | 'application/x-www-form-urlencoded' | 'multipart/form-data';
  /** How the caller proves who it is: a bearer token (default for non-public routes), the OAuth client's credentials, or nothing. */
  auth?: 'bearer' | 'optional-bearer' | 'client' | 'none' | 'app-signature';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    docs?: RouteDocs;
  }
}
