import { z } from 'zod';
import { HOOK_EVENT_TYPES } from './constants';

/**
 * Webhooks on the wire (issue #14, docs/api/hooks.md): the hook as the API answers it, its log
 * rows and the save body. Shared by the server (server/hooks) and the app (src/screens/profile/developer).
 */

export type HookEventType = (typeof HOOK_EVENT_TYPES)[number];

export interface Hook {
  id: string;
  team_id: number;
  /** The workspace's name (GET /api/me/hooks lists hooks of every workspace). */
  team_name: string;
  url: string;
  events: HookEventType[];
  active: boolean;
  /** Deliveries failed for good one after another (50 switch the hook off). */
  failures_in_a_row: number;
  /** When failures switched it off (null: on, or switched off by hand). */
  deactivated_at: string | null;
  created_at: string;
  updated_at: string;
  /** Only in the answer of the save that created the hook or rotated its secret. */
  secret?: string;
}

export interface HookLog {
  id: string;
  delivery_id: string;
  event: string;
  attempt: number;
  /** success, retrying (another attempt is scheduled), failed (the delivery gave up) */
  status: 'success' | 'retrying' | 'failed';
  response_status: number | null;
  duration_ms: number;
  error: string | null;
  /** The JSON sent and the start of the answer, each cut at 4 KB. */
  request_body: string | null;
  response_body: string | null;
  created_at: string;
}

/** PUT /api/{team_id}/hooks/{id}: url and events are required when the hook is new. */
export const hookSaveBody = z.strictObject({
  url: z.string().max(2000).optional(),
  events: z.array(z.enum(HOOK_EVENT_TYPES)).min(1).max(HOOK_EVENT_TYPES.length).optional(),
  active: z.boolean().optional(),
  /** true: a new secret is made and answered this once (the old one stops signing at once). */
  rotate_secret: z.boolean().optional(),
});
export type HookSaveBody = z.infer<typeof hookSaveBody>;

/** A hook id chosen by the client (like record ids): letters, digits, - and _. */
export const HOOK_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** How long hook logs are kept. */
export const HOOK_LOG_DAYS = 30;
