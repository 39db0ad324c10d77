import type { AddressRule, Resolver } from './address';

/**
 * Per-feature operator allow-lists of the outbound client (decision 0355). Each feature that
 * fetches an address a user chooses or influences has its own two settings, and no setting of one
 * feature opens another:
 *
 *   <PREFIX>_ALLOW_PRIVATE_TARGETS=true   every inside address (development, tests; never in production)
 *   <PREFIX>_ALLOWED_HOSTS=a.internal,b:8443   these hosts (name or name:port) only
 *
 * Prefixes: WEBHOOKS (hooks and the automation webhook action), GITLAB_IMPORT, TRELLO_IMPORT,
 * SSO (discovery, token, JWKS and userinfo endpoints; SSO_ALLOW_PRIVATE_ISSUERS is its older
 * name and still counts), WEB_PUSH (push services: https only unless its private setting is on;
 * PUSH_ALLOW_INSECURE_ENDPOINTS is its older name), BOT_CHECK, WHITELABEL_SMTP (a white-label mail server).
 */
export const OUTBOUND_FEATURES = {
  webhooks: 'WEBHOOKS',
  gitlabImport: 'GITLAB_IMPORT',
  trelloImport: 'TRELLO_IMPORT',
  sso: 'SSO',
  webPush: 'WEB_PUSH',
  botCheck: 'BOT_CHECK',
  whitelabelSmtp: 'WHITELABEL_SMTP',
} as const;

export type OutboundFeature = keyof typeof OUTBOUND_FEATURES;

export interface FeatureAllowance {
  allowPrivate?: boolean;
  allowedHosts?: string[];
}

export interface OutboundConfig {
  features: Partial<Record<OutboundFeature, FeatureAllowance>>;
  /** A resolver in place of the system's DNS for every feature (tests only; not from the environment). */
  resolve?: Resolver;
}

const isTrue = (value: string | undefined) => value?.trim().toLowerCase() === 'true';
const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export function loadOutboundConfig(env: NodeJS.ProcessEnv = process.env): OutboundConfig {
  const features: OutboundConfig['features'] = {};
  for (const [feature, prefix] of Object.entries(OUTBOUND_FEATURES) as [OutboundFeature, string][]) {
    const allowPrivate = isTrue(env[`${prefix}_ALLOW_PRIVATE_TARGETS`]) || (feature === 'sso' && isTrue(env.SSO_ALLOW_PRIVATE_ISSUERS)) || (feature === 'webPush' && isTrue(env.PUSH_ALLOW_INSECURE_ENDPOINTS));
    features[feature] = { allowPrivate, allowedHosts: list(env[`${prefix}_ALLOWED_HOSTS`]) };
  }
  return { features };
}

/** The parts of the server config the rule reads (older per-feature settings kept where they were). */
export interface OutboundSettings {
  outbound?: OutboundConfig;
  webhooks?: { allowPrivateTargets?: boolean };
  ssoAllowPrivateIssuers?: boolean;
}

/** The address rule of one feature: only its own settings count. */
export function outboundRule(config: OutboundSettings, feature: OutboundFeature): AddressRule {
  const own = config.outbound?.features[feature] ?? {};
  let allowPrivate = own.allowPrivate === true;
  if (feature === 'webhooks' && config.webhooks?.allowPrivateTargets) allowPrivate = true;
  if (feature === 'sso' && config.ssoAllowPrivateIssuers) allowPrivate = true;
  // A push service is always https (RFC 8030); the feature's private setting (a local test push
  // service) also allows http.
  const httpsOnly = feature === 'webPush' && !allowPrivate;
  return { allowPrivate, allowedHosts: own.allowedHosts ?? [], resolve: config.outbound?.resolve, httpsOnly };
}
