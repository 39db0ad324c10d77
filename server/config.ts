import path from 'node:path';
import { loadFilesConfig, type FilesConfig } from './files/config';

/** Everything the server reads from the environment, read once. */
export interface ServerConfig {
  host: string;
  port: number;
  dataDir: string;
  /** When set, the server uses this PostgreSQL server instead of the embedded PGlite. */
  databaseUrl: string | null;
  /** Public base URL used in mails (password reset, invitations). */
  publicUrl: string;
  appVersion: string;
  /** SMTP url (smtp://user:pass@host:port); when null mail goes to `${dataDir}/outbox`. */
  smtpUrl: string | null;
  mailFrom: string;
  /** Pusher settings; when PUSHER_HOST is unset the embedded realtime endpoint is used. */
  pusher: { appId: string; key: string; secret: string; host: string | null; port: number | null; useTLS: boolean };
  /** Serve the built web app from this folder when it exists. */
  webDir: string;
  logLevel: string;
  /** Creates the demo user and workspace on first start. */
  seedDemo: boolean;
  /** TRUST_PROXY: false (default), true, a hop count, or a comma-separated list of proxy addresses. */
  trustProxy: boolean | number | string[];
  /** Test mode relaxes nothing security-wise; it only silences logs by default. */
  isTest: boolean;
  /** Uploads: sweep interval, grace before removal, per-workspace storage limit (server/files/config.ts). */
  files: FilesConfig;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.PORT ?? 8080);
  const host = env.HOST ?? '127.0.0.1';
  const dataDir = path.resolve(env.DATA_DIR ?? 'data');
  return {
    host,
    port,
    dataDir,
    databaseUrl: env.DATABASE_URL || null,
    publicUrl: env.PUBLIC_URL ?? `http://${host}:${port}`,
    appVersion: env.APP_VERSION ?? '34.3.6',
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM ?? 'Cairn <no-reply@cairn.local>',
    pusher: {
      appId: env.PUSHER_APP_ID ?? 'cairn',
      key: env.PUSHER_APP_KEY ?? 'cairn-key',
      secret: env.PUSHER_APP_SECRET ?? 'cairn-secret-change-me',
      host: env.PUSHER_HOST || null,
      port: env.PUSHER_PORT ? Number(env.PUSHER_PORT) : null,
      useTLS: env.PUSHER_TLS === 'true',
    },
    webDir: path.resolve(env.WEB_DIR ?? 'dist'),
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    seedDemo: env.SEED_DEMO !== 'false',
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    isTest: env.NODE_ENV === 'test',
    files: loadFilesConfig(env),
  };
}

function parseTrustProxy(value: string | undefined): boolean | number | string[] {
  if (!value || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',').map((part) => part.trim()).filter(Boolean);
}
