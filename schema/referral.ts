import { z } from 'zod';

/**
 * The referral wire shapes (workspace.md §7 "Referral", decision 0260), one definition for the
 * server (server/referral) and the /profile/referral screen. The server validates input with the
 * `…Body` schemas and builds its answers as the types here; tests/server/wire-shapes.test.ts
 * parses the real answers with them. The app imports the types only.
 */

export const referralCodeSchema = z
  .string({ error: 'is required' })
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9-]{2,30}[a-z0-9]$/, 'must be 4 to 32 letters, digits or dashes (not at either end)');
/** PUT /api/referral. */
export const referralCodeBody = z.object({ code: referralCodeSchema }).strict();
/** POST /api/referral/invite: one text separated by commas, spaces, semicolons or new lines, or a list. */
export const referralInviteBody = z.object({ emails: z.union([z.string().max(20_000), z.array(z.string().max(254)).max(200)]) }).strict();

/** GET, POST and PUT /api/referral. */
export const referralViewSchema = z.object({
  code: z.string(),
  link: z.string(),
  /** The referrer's share of each paid invoice (0.2). */
  rate: z.number(),
  signups: z.number(),
  invitations: z.array(z.object({ email: z.string(), sent_at: z.string(), times: z.number(), joined: z.boolean() })),
  /** Credited so far, per currency, in minor units (cents). */
  /** Credits whose invoice is past its refund window (issue #26, N12). */
  earnings: z.array(z.object({ currency: z.string(), amount: z.number() })),
  /** Credits still in their invoice's refund window: they count once it has passed. */
  held: z.array(z.object({ currency: z.string(), amount: z.number() })),
  credits: z.array(z.object({ invoice_id: z.string(), amount: z.number(), invoice_amount: z.number(), currency: z.string(), created_at: z.string(), available_at: z.string().nullable() })),
});
export type ReferralView = z.infer<typeof referralViewSchema>;

export const INVITE_SKIP_REASONS = ['has_account', 'own_address', 'recently_invited', 'daily_limit'] as const;
/** POST /api/referral/invite: who was mailed, who was not and why. */
export const referralInviteAnswerSchema = z.object({
  sent: z.array(z.string()),
  skipped: z.array(z.object({ email: z.string(), reason: z.enum(INVITE_SKIP_REASONS) })),
});
export type ReferralInviteAnswer = z.infer<typeof referralInviteAnswerSchema>;
