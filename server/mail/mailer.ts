import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * Writes each mail as a JSON file into the outbox folder (the default on one machine, and what
 * tests read), or sends through SMTP when a URL is configured.
 */
export function createMailer(opts: { outboxDir: string; smtpUrl: string | null; from: string }): Mailer & { outboxDir: string } {
  const transport = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : null;
  let counter = 0;
  return {
    outboxDir: opts.outboxDir,
    async send(message) {
      if (transport) {
        await transport.sendMail({ from: opts.from, ...message });
        return;
      }
      await fs.mkdir(opts.outboxDir, { recursive: true });
      const name = `${Date.now()}-${process.pid}-${++counter}.json`;
      await fs.writeFile(path.join(opts.outboxDir, name), JSON.stringify({ from: opts.from, ...message, sent_at: new Date().toISOString() }, null, 2));
    },
  };
}

/** Reads the outbox, newest last; used by tests and the dev mail viewer. */
export async function readOutbox(outboxDir: string): Promise<(MailMessage & { sent_at: string })[]> {
  let names: string[] = [];
  try {
    names = (await fs.readdir(outboxDir)).filter((n) => n.endsWith('.json')).sort((a, b) => {
      const [ta, , ca] = a.split('-');
      const [tb, , cb] = b.split('-');
      return Number(ta) - Number(tb) || parseInt(ca!, 10) - parseInt(cb!, 10);
    });
  } catch {
    return [];
  }
  return Promise.all(names.map(async (n) => JSON.parse(await fs.readFile(path.join(outboxDir, n), 'utf8'))));
}
