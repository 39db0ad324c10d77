import { ConfigError } from '../secrets';

/**
 * BILLING: `on` (default) sells plans; `off` is for self-hosters who want no billing — every
 * workspace gets the top plan's limits and the app hides its billing screens (decision 0240).
 */
export function loadBillingEnabled(env: NodeJS.ProcessEnv): boolean {
  const value = env.BILLING?.trim().toLowerCase();
  if (value === undefined || value === '' || value === 'on' || value === 'true' || value === '1') return true;
  if (value === 'off' || value === 'false' || value === '0') return false;
  throw new ConfigError(`BILLING must be on or off, not "${env.BILLING}".`);
}
