import type { AppContext } from '../context';

/** The mails accounts send. Links point at app routes of shell.md §2. */

const link = (ctx: AppContext, path: string) => ctx.config.publicUrl.replace(/\/+$/, '') + path;

export function passwordResetLink(ctx: AppContext, token: string, email: string): string {
  return link(ctx, `/password/reset/${encodeURIComponent(token)}/${encodeURIComponent(email)}`);
}

export function verifyEmailLink(ctx: AppContext, token: string): string {
  return link(ctx, `/verify-email?token=${encodeURIComponent(token)}`);
}

export async function sendPasswordResetMail(ctx: AppContext, to: string, token: string): Promise<void> {
  const url = passwordResetLink(ctx, token, to);
  await ctx.mailer.send({
    to,
    subject: 'Reset your Cairn password',
    text: `Someone asked to reset the password of your Cairn account.\n\nChoose a new password here (the link works once, for 60 minutes):\n${url}\n\nIf it was not you, ignore this mail; your password stays as it is.`,
  });
}

export async function sendVerificationMail(ctx: AppContext, to: string, token: string): Promise<void> {
  const url = verifyEmailLink(ctx, token);
  await ctx.mailer.send({
    to,
    subject: 'Confirm your email address',
    text: `Please confirm that ${to} is your email address for Cairn (the link works for 24 hours):\n${url}`,
  });
}

/** Tells the old address that the account's email changed, so a hijack does not go unnoticed. */
export async function sendEmailChangedNotice(ctx: AppContext, oldAddress: string, newAddress: string): Promise<void> {
  await ctx.mailer.send({
    to: oldAddress,
    subject: 'Your Cairn email address was changed',
    text: `The email address of your Cairn account was changed from ${oldAddress} to ${newAddress}.\n\nIf you did not do this, reset your password at once and contact support.`,
  });
}

export async function sendPasswordChangedNotice(ctx: AppContext, to: string): Promise<void> {
  await ctx.mailer.send({
    to,
    subject: 'Your Cairn password was changed',
    text: 'The password of your Cairn account was just changed and its other sessions were signed out.\n\nIf you did not do this, reset your password at once and contact support.',
  });
}
