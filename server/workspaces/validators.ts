import { z } from 'zod';
import { ASSIGNABLE_ROLES } from '../../schema/permissions';

/** Body validators of the workspace endpoints. Messages read after the field name ("name: ..."). */

export const teamNameField = z.string({ error: 'is required' }).trim().min(1, 'is required').max(255, 'must be at most 255 characters');

export const assignableRoleField = z.enum(ASSIGNABLE_ROLES, { error: `must be one of ${ASSIGNABLE_ROLES.join(', ')}` });

export const createTeamBody = z
  .object({
    name: teamNameField,
    subscription_id: z.number({ error: 'must be a number' }).int().positive().optional(),
  })
  .strict();

export const updateTeamBody = z
  .object({
    name: teamNameField.optional(),
    use_custom_logo: z.boolean({ error: 'must be true or false' }).optional(),
    domain: z
      .string({ error: 'must be a string' })
      .trim()
      .max(253, 'must be at most 253 characters')
      .regex(/^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i, 'must be a domain name such as work.example.com')
      .nullable()
      .optional(),
  })
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'name, use_custom_logo or domain is required');

export const roleBody = z.object({ role: assignableRoleField }).strict();

/**
 * The invitation list: its shape must be right (else a plain 422), but each entry's email and role
 * are checked one by one so valid entries still go out (partial success).
 */
export const inviteBody = z
  .object({
    invitations: z
      .array(z.object({ email: z.unknown(), role: z.unknown() }, { error: 'each invitation must be an object with email and role' }), { error: 'is required' })
      .min(1, 'must list at least one invitation')
      .max(100, 'must list at most 100 invitations'),
    boardId: z.string({ error: 'must be a string' }).min(1).max(64).nullish(),
  })
  .strict();

export const invitationEmail = z.string().trim().min(1).max(254).pipe(z.email());

export const resendBody = z.object({ user_id: z.number({ error: 'is required' }).int().positive() }).strict();

export const acceptBody = z.object({ token: z.string({ error: 'is required' }).min(1, 'is required').max(512) }).strict();

export const permissionsBody = z
  .object({
    permissions: z.record(z.string(), z.unknown(), { error: 'is required' }),
    row_version: z.number({ error: 'must be a number' }).int().positive().optional(),
  })
  .strict();

export const accessQuery = z
  .object({
    resource_type: z.string({ error: 'is required' }).min(1, 'is required'),
    resource_id: z.string().optional(),
  });
