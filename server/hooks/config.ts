/**
 * Webhook settings, read once from the environment with the rest of the config.
 *
 * - WEBHOOKS_ALLOW_PRIVATE_TARGETS (default false): true lets hooks target loopback, private,
 *   link-local and other inside addresses (development, tests). Never in production. It opens
 *   webhooks and the automation webhook action only; WEBHOOKS_ALLOWED_HOSTS names single hosts.
 */
export interface WebhooksConfig {
  /** The webhooks feature's allow setting of the outbound client (server/outbound/policy.ts). */
  allowPrivateTargets: boolean;
}

export function loadWebhooksConfig(env: NodeJS.ProcessEnv = process.env): WebhooksConfig {
  return { allowPrivateTargets: env.WEBHOOKS_ALLOW_PRIVATE_TARGETS?.trim().toLowerCase() === 'true' };
}
