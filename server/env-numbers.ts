import { ConfigError } from './secrets';

/**
 * A number of 0 or more from the environment, or `fallback` when unset or blank; anything else
 * stops the start with a plain message (ConfigError). Shared by the settings of uploads
 * (files/config.ts) and of the change log (sync/compaction.ts).
 */
export function nonNegative(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new ConfigError(`${name} must be a number of 0 or more (got "${env[name]}").`);
  return value;
}
