import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { templateRoutes } from './routes';
import { duplicateRoutes } from './duplicate';

/**
 * Templates (issue #16, decision 0165): the templates API, the built-in gallery and "duplicate
 * board" as a board job (decision 0160). The "template shared" notification comes from the
 * notifications consumer (server/templates/notify.ts), not from here.
 */
export function templatesModule(app: FastifyInstance, ctx: AppContext): void {
  templateRoutes(app, ctx);
  duplicateRoutes(app, ctx);
}
