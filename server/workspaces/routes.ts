import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { teamRoutes } from './team-routes';
import { memberRoutes } from './member-routes';
import { permissionRoutes } from './permission-routes';
import { featuresRoutes } from './features';

/** The workspaces module: teams, members and invitations, subscriptions read, workspace permissions, feature flags. */
export function workspacesRoutes(app: FastifyInstance, ctx: AppContext) {
  teamRoutes(app, ctx);
  memberRoutes(app, ctx);
  permissionRoutes(app, ctx);
  featuresRoutes(app, ctx);
}
