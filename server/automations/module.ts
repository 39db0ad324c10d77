import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { registerEventConsumer } from '../events/consumers';
import { TICK_JOB, tick } from './clock';
import { automationsForEvent } from './consumer';
import { automationRoutes } from './routes';
import { RUN_JOB, runAutomation, type RunPayload } from './run';

/**
 * Automations (decision 0150, docs/automations.md): the run log and usage routes, the
 * `automations` event consumer that queues runs, the run job (Autobot's writes) and the clock
 * of the date triggers.
 */
export function automationsModule(app: FastifyInstance, ctx: AppContext): void {
  automationRoutes(app, ctx);
  registerEventConsumer(ctx, 'automations', (event, c) => automationsForEvent(event, c));
  ctx.jobs.register<RunPayload>(RUN_JOB, async (payload) => {
    await runAutomation(ctx, payload);
  });
  ctx.jobs.register(TICK_JOB, () => tick(ctx));
}
