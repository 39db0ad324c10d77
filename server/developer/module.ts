import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { tokenRoutes } from './token-routes';
import { oauthRoutes } from './oauth-routes';
import { apiDocsRoutes } from '../api-docs/routes';

/** The developer area's server side: personal access tokens, OAuth apps (decision 0145) and the API documentation (decision 0146). */
export async function developerModule(app: FastifyInstance, ctx: AppContext) {
  tokenRoutes(app, ctx);
  await oauthRoutes(app, ctx);
  apiDocsRoutes(app, ctx);
}
