import { z } from 'zod';
import { parseBody } from '../http/errors';

/** The query of GET /api/{teamId}/activity (docs/api.md, Activity). */
export const activityQuery = z
  .object({
    item_id: z.string().min(1).max(200).optional(),
    board_id: z.string().min(1).max(200).optional(),
    user_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
    from: z.string().datetime({ offset: true }).or(z.string().date()).optional(),
    to: z.string().datetime({ offset: true }).or(z.string().date()).optional(),
    /** The previous page's `after`: an event id. */
    after: z.string().regex(/^\d{1,19}$/, 'an event id').optional(),
    limit: z.coerce.number().int().min(1).max(100).default(50),
  })
  .strict()
  .refine((q) => q.item_id !== undefined || q.board_id !== undefined, { message: 'item_id or board_id: one is required', path: ['board_id'] });

export type ActivityQuery = z.infer<typeof activityQuery>;

export function parseActivityQuery(query: unknown): ActivityQuery {
  return parseBody(activityQuery, query);
}
