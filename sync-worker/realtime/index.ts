/** The worker's realtime client (DESIGN.md §5). See docs/api/realtime.md for the contract. */
export { createRealtime, socketAddress, Realtime, type RealtimeEvent, type RealtimeOptions, type ConnectionSignal, type BroadcastingVars, type PusherConstructor } from './client';
export { AuthBatcher } from './auth-batcher';
export { channelNames, scopeOf, type ChannelScope } from './channels';
export { RealtimeUnauthorizedError, RealtimeAuthUnavailableError } from './errors';
