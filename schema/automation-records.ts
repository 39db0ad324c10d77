import { z } from 'zod';
import { baseRecord, recordId } from './records';
import { filterRule } from './views';

/**
 * The synced records of automations (schema/automations.ts has their rules and evaluator). Kept
 * apart and small: the collection registry imports these, and the registry is in the app shell.
 */

export const MAX_AUTOMATION_ACTIONS = 10;
export const MAX_AUTOMATION_CONDITIONS = 20;
const userId = z.number().int().positive();

/** A free-form map of an unfinished trigger or action (the builder saves drafts), bounded in size. */
const draftPart = z
  .record(z.string().max(64), z.json())
  .refine((map) => JSON.stringify(map).length <= 32 * 1024, 'at most 32 KB');

/**
 * The synced record. Drafts are allowed (an incomplete trigger or action is stored as the builder
 * left it) but only a complete, valid automation may be enabled: the server saves an invalid one
 * disabled (server/automations/rules.ts), the builder says AUTOMATION_INVALID_MESSAGE.
 */
export const automationRecord = baseRecord.extend({
  name: z.string().trim().max(255).default(''),
  enabled: z.boolean().default(false),
  trigger: draftPart.nullable().default(null),
  conditions: z.array(filterRule).max(MAX_AUTOMATION_CONDITIONS).default([]),
  match: z.enum(['all', 'any']).default('all'),
  actions: z.array(draftPart).max(MAX_AUTOMATION_ACTIONS).default([]),
  position: z.number().finite().default(0),
  created_by: userId.nullable().optional(),
});
export type AutomationRecord = z.infer<typeof automationRecord>;

/** A click of a Button attribute on an item: a record, so it is optimistic and queued offline like any write. */
export const buttonClickRecord = baseRecord.extend({
  item_id: recordId,
  attribute_id: recordId,
  created_by: userId.nullable().optional(),
});
export type ButtonClickRecord = z.infer<typeof buttonClickRecord>;
