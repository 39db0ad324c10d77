/**
 * Webhook settings, read once from the environment with the rest of the config.
 *
 * - WEBHOOKS_ALLOW_PRIVATE_TARGETS (default false): true lets hooks target loopback, private,
 *   link-local and other inside addresses (development, tests). Never in production.
 */
import type { Resolver } from './targets';

export interface WebhooksConfig {
  allowPrivateTargets: boolean;
  /** A resolver in place of the system's DNS (tests only; not from the environment). */
  resolve?: Resolver;
}

export function loadWebhooksConfig(env: NodeJS.ProcessEnv = process.env): WebhooksConfig {
  return { allowPrivateTargets: env.WEBHOOKS_ALLOW_PRIVATE_TARGETS?.trim().toLowerCase() === 'true' };
}
