import path from 'node:path';
import { loadBotCheckConfig, type BotCheckConfig } from './forms/bot-check-config';
import { ConfigError, realtimeSecret } from './secrets';
import { loadFilesConfig, type FilesConfig } from './files/config';
import { loadWebhooksConfig, type WebhooksConfig } from './hooks/config';
import { checkPaymentProviderChosen, loadBillingEnabled } from './billing/config';
import { loadOutboundConfig, type OutboundConfig } from './outbound/policy';
import { loadChangeLogConfig, type ChangeLogConfig } from './sync/compaction';

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
  /**
   * Pusher settings; when PUSHER_HOST is unset the embedded realtime endpoint is used. The key and
   * app id are public (browsers get the key); the secret never leaves the server (server/secrets.ts).
   */
  pusher: { appId: string; key: string; secret: string; host: string | null; port: number | null; useTLS: boolean };
  /** Serve the built web app from this folder when it exists. */
  webDir: string;
  logLevel: string;
  /**
   * Creates the demo accounts (published password) and workspace at start. On by default only for
   * the embedded default (no DATABASE_URL) outside production; see demoSeeding.
   */
  seedDemo: boolean;
  /**
   * TRUST_PROXY: false (default), true, a hop count, or a comma-separated list of proxy addresses.
   * When set, X-Forwarded-For gives the client address and X-Forwarded-Proto tells whether the
   * request arrived over TLS (Secure cookie, HSTS).
   */
  trustProxy: boolean | number | string[];
  /** Test mode relaxes nothing security-wise; it only silences logs by default. */
  isTest: boolean;
  /** Uploads: sweep interval, grace before removal, per-workspace storage limit, the store (server/files/config.ts). */
  files: FilesConfig;
  /** METRICS_TOKEN: the bearer token /metrics asks for; null keeps /metrics off (server/ops/metrics.ts). */
  metricsToken: string | null;
  /** ADMIN_TOKEN: the bearer token PUT /ops/shell-settings asks for; null keeps it off (server/shell). */
  adminToken: string | null;
  /** Webhook targets (server/hooks/config.ts). */
  webhooks: WebhooksConfig;
  /** Per-feature allow-lists of the outbound client, and the tests' resolver (server/outbound/policy.ts). */
  outbound: OutboundConfig;
  /** The public forms' bot check (server/forms/bot-check.ts); null = none. */
  botCheck: BotCheckConfig | null;
  /** BILLING=off: no billing, every workspace gets the top plan's limits (server/billing/config.ts). */
  billing: boolean;
  /** SSO_ALLOW_PRIVATE_ISSUERS=true: identity providers on loopback/private addresses, over http too (intranet, tests; decision 0270). */
  ssoAllowPrivateIssuers: boolean;
  /** SECRETS_KEY: seals stored secrets (SSO client secrets, white-label SMTP passwords); unset = generated into DATA_DIR (server/secret-box.ts). */
  secretsKey: string | null;
  /** BOARD_JOBS_MAX_RUNNING: board jobs (imports, duplicates, moves, PDF exports) running at once on the instance (default 2; server/board-jobs/admission.ts). */
  boardJobsMaxRunning?: number;
  /** CHANGE_LOG_RETENTION_DAYS, CHANGE_LOG_COMPACT_MINUTES: the change log's compaction (server/sync/compaction.ts, decision 0351). */
  changeLog?: ChangeLogConfig;
}

/**
 * Reads the environment. Throws ConfigError for settings the server must not run with (a published
 * realtime secret, demo accounts in production); may create DATA_DIR/realtime-secret on first start.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.PORT ?? 8080);
  const host = env.HOST ?? '127.0.0.1';
  const dataDir = path.resolve(env.DATA_DIR ?? 'data');
  checkPaymentProviderChosen(env, loadBillingEnabled(env));
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
      secret: realtimeSecret(env, dataDir),
      host: env.PUSHER_HOST || null,
      port: env.PUSHER_PORT ? Number(env.PUSHER_PORT) : null,
      useTLS: env.PUSHER_TLS === 'true',
    },
    webDir: path.resolve(env.WEB_DIR ?? 'dist'),
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    seedDemo: demoSeeding(env),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    isTest: env.NODE_ENV === 'test',
    files: loadFilesConfig(env),
    metricsToken: env.METRICS_TOKEN || null,
    adminToken: env.ADMIN_TOKEN || null,
    webhooks: loadWebhooksConfig(env),
    outbound: loadOutboundConfig(env),
    botCheck: loadBotCheckConfig(env),
    billing: loadBillingEnabled(env),
    ssoAllowPrivateIssuers: env.SSO_ALLOW_PRIVATE_ISSUERS?.trim().toLowerCase() === 'true',
    secretsKey: env.SECRETS_KEY || null,
    boardJobsMaxRunning: boardJobsMaxRunning(env),
    changeLog: loadChangeLogConfig(env),
  };
}

/** BOARD_JOBS_MAX_RUNNING: a whole number from 1 to 64; unset = 2. */
function boardJobsMaxRunning(env: NodeJS.ProcessEnv): number {
  const raw = env.BOARD_JOBS_MAX_RUNNING?.trim();
  if (!raw) return 2;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new ConfigError(`BOARD_JOBS_MAX_RUNNING must be a whole number from 1 to 64, not "${env.BOARD_JOBS_MAX_RUNNING}".`);
  return n;
}

/**
 * SEED_DEMO: unset = seed only the embedded default (`npm start`: no DATABASE_URL) outside
 * production; `false` = never; `true` = also on PostgreSQL. The demo accounts share a published
 * password, so NODE_ENV=production never seeds and an explicit SEED_DEMO=true there is refused.
 */
export function demoSeeding(env: NodeJS.ProcessEnv): boolean {
  const production = env.NODE_ENV === 'production';
  const asked = env.SEED_DEMO?.trim().toLowerCase();
  if (asked === undefined || asked === '') return !production && !env.DATABASE_URL;
  if (asked === 'false' || asked === '0') return false;
  if (asked !== 'true' && asked !== '1') throw new ConfigError(`SEED_DEMO must be true or false, not "${env.SEED_DEMO}".`);
  if (production) throw new ConfigError('SEED_DEMO=true is refused with NODE_ENV=production: the demo accounts have a published password.');
  return true;
}

function parseTrustProxy(value: string | undefined): boolean | number | string[] {
  if (!value || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',').map((part) => part.trim()).filter(Boolean);
}
