/**
 * Settings of stored files (uploads), read once from the environment with the rest of the config.
 *
 * - FILE_SWEEP_INTERVAL_MINUTES (default 60; 0 turns the periodic sweep off): how often an API
 *   server tries to sweep unreferenced uploads. Only one server sweeps at a time (advisory lock).
 * - FILE_GRACE_HOURS (default 168 = 7 days): how long a file must have been seen unreferenced
 *   before it is removed, so an undo, a queued offline save or a restore can still claim it.
 * - WORKSPACE_STORAGE_LIMIT_MB (unset = no cap of its own): bytes of uploads one workspace may
 *   hold, an extra cap beside the plan's storage limit (decision 0260: the plan's `storage` GB
 *   holds for all the workspaces of a subscription); an upload over either is refused with 413
 *   storage_full.
 * - S3_BUCKET (unset = files on the local disk under DATA_DIR/uploads): store uploads in this
 *   bucket of an S3-compatible service instead (decision 0190), with S3_ENDPOINT (unset = AWS),
 *   S3_REGION (default us-east-1), S3_ACCESS_KEY_ID + S3_SECRET_ACCESS_KEY (both or neither:
 *   neither = the SDK's own credential chain, e.g. an instance role), S3_FORCE_PATH_STYLE
 *   (`true` for most self-hosted stores).
 * - FILE_DOWNLOADS: `stream` (default; the API server reads the object and sends it) or
 *   `redirect` (S3 only: the API answers 302 to a signed URL valid FILE_SIGNED_URL_SECONDS,
 *   default 300, so the bytes go from the bucket straight to the browser; S3_PUBLIC_ENDPOINT is
 *   the address browsers reach the store at, when it differs from S3_ENDPOINT).
 */
import { ConfigError } from '../secrets';
import { nonNegative } from '../env-numbers';

export interface FilesConfig {
  sweepIntervalMs: number;
  graceMs: number;
  /** Null: no per-workspace cap (the plan's storage limit still holds). */
  workspaceStorageLimitBytes: number | null;
  /** Object storage; null = the local disk. */
  s3: S3Config | null;
  downloads: 'stream' | 'redirect';
  signedUrlSeconds: number;
}

export interface S3Config {
  bucket: string;
  /** Null = AWS itself (the SDK picks the regional endpoint). */
  endpoint: string | null;
  /** The endpoint browsers reach for signed URLs (defaults to `endpoint`). */
  publicEndpoint: string | null;
  region: string;
  /** Null = the SDK's default credential chain. */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  forcePathStyle: boolean;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const MB = 1024 * 1024;

export function loadFilesConfig(env: NodeJS.ProcessEnv = process.env): FilesConfig {
  const s3 = loadS3Config(env);
  const downloads = env.FILE_DOWNLOADS || 'stream';
  if (downloads !== 'stream' && downloads !== 'redirect') throw new ConfigError(`FILE_DOWNLOADS must be stream or redirect (got "${downloads}").`);
  if (downloads === 'redirect' && !s3) throw new ConfigError('FILE_DOWNLOADS=redirect needs object storage (S3_BUCKET): files on the local disk are streamed.');
  return {
    sweepIntervalMs: nonNegative(env, 'FILE_SWEEP_INTERVAL_MINUTES', 60) * MINUTE,
    graceMs: nonNegative(env, 'FILE_GRACE_HOURS', 168) * HOUR,
    workspaceStorageLimitBytes: env.WORKSPACE_STORAGE_LIMIT_MB ? Math.floor(nonNegative(env, 'WORKSPACE_STORAGE_LIMIT_MB', 0) * MB) : null,
    s3,
    downloads,
    signedUrlSeconds: Math.max(1, Math.floor(nonNegative(env, 'FILE_SIGNED_URL_SECONDS', 300))),
  };
}

/** The S3_* settings, or null when S3_BUCKET is unset (local disk). */
function loadS3Config(env: NodeJS.ProcessEnv): S3Config | null {
  const bucket = env.S3_BUCKET?.trim();
  if (!bucket) {
    const stray = ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'].filter((name) => env[name]);
    if (stray.length) throw new ConfigError(`${stray.join(', ')} set without S3_BUCKET: set the bucket too, or remove them to keep files on the local disk.`);
    return null;
  }
  const endpoint = url(env, 'S3_ENDPOINT');
  const id = env.S3_ACCESS_KEY_ID || '';
  const secret = env.S3_SECRET_ACCESS_KEY || '';
  if (Boolean(id) !== Boolean(secret)) throw new ConfigError('Set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (the SDK then finds credentials itself).');
  const pathStyle = (env.S3_FORCE_PATH_STYLE ?? '').trim().toLowerCase();
  if (pathStyle && !['true', 'false', '1', '0'].includes(pathStyle)) throw new ConfigError(`S3_FORCE_PATH_STYLE must be true or false (got "${env.S3_FORCE_PATH_STYLE}").`);
  return {
    bucket,
    endpoint,
    publicEndpoint: url(env, 'S3_PUBLIC_ENDPOINT') ?? endpoint,
    region: env.S3_REGION || 'us-east-1',
    credentials: id ? { accessKeyId: id, secretAccessKey: secret } : null,
    forcePathStyle: pathStyle === 'true' || pathStyle === '1',
  };
}

function url(env: NodeJS.ProcessEnv, name: string): string | null {
  const raw = env[name]?.trim();
  if (!raw) return null;
  try {
    const parsed = new URL(raw);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('scheme');
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL (got "${raw}").`);
  }
  return raw.replace(/\/+$/, '');
}
