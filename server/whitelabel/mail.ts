import nodemailer from 'nodemailer';
import type { AppContext } from '../context';
import type { Mailer, MailMessage } from '../mail/mailer';
import { outboundRule, resolveChecked, TargetRefused } from '../outbound';
import { smtpPasswordOf, storedWhitelabel, whitelabelEligibility, whitelabelRow, type WhitelabelRow } from './service';

/**
 * A white-labelled workspace's own SMTP server (decision 0265). The host is resolved and checked
 * like a webhook target by the outbound client's address rule (no loopback or private
 * addresses unless WHITELABEL_SMTP_ALLOW_PRIVATE_TARGETS or WHITELABEL_SMTP_ALLOWED_HOSTS),
 * and the connection goes to the checked address with the name kept for TLS, so a name that
 * resolves differently at send time cannot reach the inside network.
 */

/** Connection and greeting limits: a wrong host fails the test mail in seconds, not minutes. */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

export class SmtpFailure extends Error {
  override name = 'SmtpFailure';
}

/** Sends one message through the row's SMTP settings; SmtpFailure says why it did not go. */
export async function sendThroughSmtp(ctx: AppContext, row: Pick<WhitelabelRow, 'smtp' | 'smtp_password'>, message: MailMessage): Promise<void> {
  const smtp = row.smtp;
  if (!smtp) throw new SmtpFailure('No SMTP server is set.');
  let address: string;
  try {
    address = (await resolveChecked(smtp.host, outboundRule(ctx.config, 'whitelabelSmtp'), String(smtp.port)))[0]!.address;
  } catch (error) {
    throw new SmtpFailure(error instanceof TargetRefused ? error.message : `The host ${smtp.host} could not be resolved.`);
  }
  const password = smtpPasswordOf(ctx, row);
  const transport = nodemailer.createTransport({
    host: address,
    port: smtp.port,
    secure: smtp.secure,
    ...(smtp.user ? { auth: { user: smtp.user, pass: password ?? '' } } : {}),
    tls: { servername: smtp.host },
    ...TIMEOUTS,
  });
  try {
    await transport.sendMail({ from: smtp.from, ...message });
  } catch (error) {
    throw new SmtpFailure(String((error as Error).message ?? error).slice(0, 300));
  } finally {
    transport.close();
  }
}

/** Where links in mail about one workspace point: its verified white-label address while it may use white label, else PUBLIC_URL. */
export async function teamBaseUrl(ctx: AppContext, teamId: number): Promise<string> {
  const team = await ctx.db.selectFrom('teams').select(['id', 'subscription_id', 'whitelabel_settings']).where('id', '=', teamId).executeTakeFirst();
  const link = team ? storedWhitelabel(team.whitelabel_settings).link : null;
  if (!team || !link) return ctx.config.publicUrl;
  return (await whitelabelEligibility(ctx, ctx.db, team, ctx.now())).eligible ? link : ctx.config.publicUrl;
}

/**
 * The mailer for mail about one workspace: its own SMTP server while it may use white label and
 * has one, else the server's. A send that fails through the workspace's server is not retried
 * through ours (its owner asked for their server; the caller's error handling applies).
 */
export async function teamMailer(ctx: AppContext, teamId: number): Promise<Mailer> {
  const row = await whitelabelRow(ctx.db, teamId);
  if (!row?.smtp) return ctx.mailer;
  const team = await ctx.db.selectFrom('teams').select(['id', 'subscription_id']).where('id', '=', teamId).executeTakeFirst();
  if (!team || !(await whitelabelEligibility(ctx, ctx.db, team, ctx.now())).eligible) return ctx.mailer;
  return { send: (message) => sendThroughSmtp(ctx, row, message) };
}
