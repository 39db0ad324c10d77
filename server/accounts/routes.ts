import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { createAccountLimits } from './limits';
import { authRoutes } from './auth-routes';
import { meRoutes } from './me-routes';
import { twoFactorRoutes } from './two-factor-routes';

/** The accounts module: sign-in and session endpoints, the own profile, two-factor settings. */
export function accountsRoutes(app: FastifyInstance, ctx: AppContext) {
  const limits = createAccountLimits(ctx);
  authRoutes(app, ctx, limits);
  meRoutes(app, ctx, limits);
  twoFactorRoutes(app, ctx, limits);
}
