import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { tokenRoutes } from './token-routes';
import { oauthRoutes } from './oauth-routes';

/** The developer area's server side: personal access tokens and OAuth apps (issue 14; decision 0145). */
export async function developerModule(app: FastifyInstance, ctx: AppContext) {
  tokenRoutes(app, ctx);
  await oauthRoutes(app, ctx);
}
