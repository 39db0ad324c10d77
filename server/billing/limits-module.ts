import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { registerEventConsumer } from '../events/consumers';
import { storageLimitsForEvent } from './storage-limit';

/** Plan limits that react to changes: the storage warning consumer (decision 0260). */
export function limitsModule(_app: FastifyInstance, ctx: AppContext) {
  registerEventConsumer(ctx, 'storage-limits', storageLimitsForEvent);
}
