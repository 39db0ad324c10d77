/**
 * Settings of stored files (uploads), read once from the environment with the rest of the config.
 *
 * - FILE_SWEEP_INTERVAL_MINUTES (default 60; 0 turns the periodic sweep off): how often an API
 *   server tries to sweep unreferenced uploads. Only one server sweeps at a time (advisory lock).
 * - FILE_GRACE_HOURS (default 168 = 7 days): how long a file must have been seen unreferenced
 *   before it is removed, so an undo, a queued offline save or a restore can still claim it.
 * - WORKSPACE_STORAGE_LIMIT_MB (default 10240 = 10 GB): bytes of uploads one workspace may hold;
 *   an upload over it is refused with 413 storage_full. Later this comes from the plan.
 */
import { ConfigError } from '../secrets';

export interface FilesConfig {
  sweepIntervalMs: number;
  graceMs: number;
  workspaceStorageLimitBytes: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const MB = 1024 * 1024;

/** A non-negative number from the environment, or the default when unset; anything else stops the start (ConfigError: a plain message). */
function nonNegative(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new ConfigError(`${name} must be a number of 0 or more (got "${raw}").`);
  return value;
}

export function loadFilesConfig(env: NodeJS.ProcessEnv = process.env): FilesConfig {
  return {
    sweepIntervalMs: nonNegative(env, 'FILE_SWEEP_INTERVAL_MINUTES', 60) * MINUTE,
    graceMs: nonNegative(env, 'FILE_GRACE_HOURS', 168) * HOUR,
    workspaceStorageLimitBytes: Math.floor(nonNegative(env, 'WORKSPACE_STORAGE_LIMIT_MB', 10 * 1024) * MB),
  };
}
