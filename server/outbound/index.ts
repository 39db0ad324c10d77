/**
 * The outbound HTTP client (decision 0355): every server-side request to an address a user
 * chooses or influences goes through `outboundFetch` with its feature's rule (`outboundRule`).
 */
export { outboundFetch, OutboundFailed, type OutboundRequest, DEFAULT_TIMEOUT_MS, REDIRECT_CAP } from './client';
export { TargetRefused, checkTargetUrl, checkTargetForm, isLocalName, parseRuleUrl, parseTargetUrl, refusedAddressReason, resolveChecked, bareHost, MALFORMED_URL, systemResolver, type Resolver, type AddressRule } from './address';
export { outboundRule, loadOutboundConfig, OUTBOUND_FEATURES, type OutboundConfig, type OutboundFeature } from './policy';
