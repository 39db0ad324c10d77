import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { requireUser } from '../auth/guard';
import { ApiError, parseBody } from '../http/errors';
import { parseTeamId, requireMemberAccess } from '../workspaces/access';
import { findUserByEmail } from '../accounts/service';
import { localeSettingOf, translator } from '../i18n/catalogs';
import { registerEventConsumer } from '../events/consumers';
import type { ReferralInviteAnswer } from '../../schema/referral';
import { DatabaseThrottle } from '../accounts/rate-limit';
import { ensureCode, inviteBody, INVITE_RECIPIENT_RULE, INVITE_SENDER_RULE, INVITES_PER_DAY, parseEmails, putBody, referralCreditsForEvent, referralLink, referralView, renewCode, setCode } from './service';

/**
 * The referral API (workspace.md §7 "Referral", decision 0260):
 * - GET /api/referral: the caller's code, link, sign-ups, invitations and earnings (the code is
 *   made on first ask);
 * - POST /api/referral: a new random code (old links stop counting);
 * - PUT /api/referral {code}: a code of one's choosing;
 * - GET /api/{workspaceId}/referral → {data: {link}} for a member of the workspace;
 * - POST /api/referral/invite {emails}: mails the link to up to 20 addresses (a text separated
 *   by commas, spaces or new lines, or a list), in the inviter's language; at most 100 mails a
 *   day per sender and one referral mail per recipient a week, each a slot of the database
 *   throttle taken before its mail (issue #26, N10: parallel requests cannot beat it, and a
 *   mail to the same address again counts again). The subject carries no text of the sender.
 * The `referral-credits` consumer credits 20 % of every paid invoice (service.ts).
 */
export function referralModule(app: FastifyInstance, ctx: AppContext) {
  registerEventConsumer(ctx, 'referral-credits', referralCreditsForEvent);
  const throttle = new DatabaseThrottle(ctx.db, () => ctx.now());

  app.get('/api/referral', async (request) => {
    const user = await requireUser(ctx.db, request);
    return { data: await referralView(ctx, ctx.db, user.id, ctx.now()) };
  });

  app.post('/api/referral', async (request) => {
    const user = await requireUser(ctx.db, request);
    await renewCode(ctx.db, user.id, ctx.now());
    return { data: await referralView(ctx, ctx.db, user.id, ctx.now()) };
  });

  app.put('/api/referral', async (request) => {
    const user = await requireUser(ctx.db, request);
    const body = parseBody(putBody, request.body);
    await setCode(ctx.db, user.id, body.code, ctx.now());
    return { data: await referralView(ctx, ctx.db, user.id, ctx.now()) };
  });

  app.get<{ Params: { teamId: string } }>('/api/:teamId/referral', async (request) => {
    const user = await requireUser(ctx.db, request);
    await requireMemberAccess(ctx, user, parseTeamId(request.params.teamId));
    return { data: { link: referralLink(ctx, await ensureCode(ctx.db, user.id, ctx.now())) } };
  });

  app.post('/api/referral/invite', async (request) => {
    const user = await requireUser(ctx.db, request);
    const body = parseBody(inviteBody, request.body);
    const emails = parseEmails(body.emails);
    const now = ctx.now();
    const link = referralLink(ctx, await ensureCode(ctx.db, user.id, now));
    const l10n = translator(await localeSettingOf(ctx.db, user.id));
    const sent: string[] = [];
    const skipped: ReferralInviteAnswer['skipped'] = [];
    let limited = false;
    for (const email of emails) {
      if (limited) {
        skipped.push({ email, reason: 'daily_limit' });
        continue;
      }
      if (email === user.email.toLowerCase()) {
        skipped.push({ email, reason: 'own_address' });
        continue;
      }
      const existing = await findUserByEmail(ctx.db, email);
      if (existing?.password_hash) {
        skipped.push({ email, reason: 'has_account' });
        continue;
      }
      // One slot of the recipient, then one of the sender, both taken before the mail goes.
      const recipient = await throttle.take(`referralInviteTo:${email}`, INVITE_RECIPIENT_RULE);
      if (!recipient.allowed) {
        skipped.push({ email, reason: 'recently_invited' });
        continue;
      }
      const sender = await throttle.take(`referralInviteFrom:${user.id}`, INVITE_SENDER_RULE);
      if (!sender.allowed) {
        await throttle.giveBack(recipient);
        limited = true;
        skipped.push({ email, reason: 'daily_limit' });
        continue;
      }
      await ctx.mailer.send({
        to: email,
        // The sender's name is their own free text: in the body, never in the subject (N10).
        subject: l10n('You are invited to Cairn'),
        text: l10n('{name} uses Cairn to organise work and invites you to try it.\n\nSign up through this link:\n{link}', { name: user.name, link }),
      });
      await ctx.db
        .insertInto('referral_invitations')
        .values({ referrer_id: user.id, email, sent_at: now })
        .onConflict((oc) => oc.columns(['referrer_id', 'email']).doUpdateSet((eb) => ({ sent_at: now, times: eb('referral_invitations.times', '+', 1) })))
        .execute();
      sent.push(email);
    }
    if (limited && sent.length === 0) throw new ApiError(429, `You can invite at most ${INVITES_PER_DAY} people a day. Try again tomorrow.`, 'too_many_requests');
    const answer: ReferralInviteAnswer = { sent, skipped };
    return { data: answer };
  });
}
