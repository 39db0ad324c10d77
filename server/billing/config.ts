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

/**
 * With NODE_ENV=production and billing on, PAYMENT_PROVIDER must be named (security review N7):
 * the default `local` provider takes the published test card, so a production server that simply
 * forgot the setting would sell every plan for free. `PAYMENT_PROVIDER=local` set on purpose (a
 * demo, a test cluster) still starts, and its checkout says it is a test provider.
 */
export function checkPaymentProviderChosen(env: NodeJS.ProcessEnv, billing: boolean): void {
  if (!billing || env.NODE_ENV !== 'production') return;
  if (env.PAYMENT_PROVIDER?.trim()) return;
  throw new ConfigError('PAYMENT_PROVIDER must be set with NODE_ENV=production and billing on (stripe for real payments; local only for a demo: it takes the published test card).');
}
