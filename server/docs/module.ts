import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { registerEventConsumer } from '../events/consumers';
import { publishedRoutes } from './published';
import { COMPACT_JOB, compactDoc, compactOnUpdate, type CompactPayload } from './compact';

/**
 * Document bodies (issue #13, decision 0135): updates are synced `doc_update` records (rules in
 * ./rules.ts, registered with the other collections' rules); this module adds their compaction
 * and the published pages (decision 0136).
 */
export function docsModule(app: FastifyInstance, ctx: AppContext): void {
  publishedRoutes(app, ctx);
  registerEventConsumer(ctx, 'docs', compactOnUpdate);
  ctx.jobs.register<CompactPayload>(COMPACT_JOB, async (payload) => {
    await compactDoc(ctx, payload);
  });
}
