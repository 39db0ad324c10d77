/**
 * The Pusher Channels protocol (version 7) as our embedded server speaks it: event names, close
 * and error codes, and channel-name rules. Shared by the connection handler and the HTTP API.
 */
export const PROTOCOL_VERSION = 7;
/** Oldest protocol version we accept; pusher-js 8 sends 7. */
export const MIN_PROTOCOL_VERSION = 5;

export const Events = {
  connectionEstablished: 'pusher:connection_established',
  error: 'pusher:error',
  ping: 'pusher:ping',
  pong: 'pusher:pong',
  subscribe: 'pusher:subscribe',
  unsubscribe: 'pusher:unsubscribe',
  subscriptionError: 'pusher:subscription_error',
  subscriptionSucceeded: 'pusher_internal:subscription_succeeded',
  memberAdded: 'pusher_internal:member_added',
  memberRemoved: 'pusher_internal:member_removed',
} as const;

/**
 * Close / error codes. 4000–4099: the client must not reconnect; 4100–4199: reconnect after a
 * back-off; 4200–4299: reconnect at once; 4300–4399: errors that do not close the connection.
 */
export const Codes = {
  appDoesNotExist: 4001,
  pathNotFound: 4005,
  invalidVersion: 4006,
  unsupportedProtocol: 4007,
  noProtocolVersion: 4008,
  overCapacity: 4100,
  genericReconnect: 4200,
  pongNotReceived: 4201,
  /**
   * Cairn's own: a right behind one of this connection's subscriptions ended (member removed, role
   * or board access changed, session revoked). The client reconnects at once and every channel is
   * authorised again (decision 0090); what it may no longer read is refused.
   */
  subscriptionsEnded: 4210,
  /** Not closing: a client message that broke a rule (too large, client event refused, bad JSON). */
  messageRejected: 4300,
  /** Not closing: a client event refused (wrong channel type or not subscribed). */
  clientEventRejected: 4301,
} as const;

export type ChannelKind = 'public' | 'private' | 'presence';

const CHANNEL_NAME = /^[-a-zA-Z0-9_=@,.;]+$/;
export const MAX_CHANNEL_NAME_LENGTH = 200;
export const MAX_EVENT_NAME_LENGTH = 200;

export function isValidChannelName(name: unknown): name is string {
  return typeof name === 'string' && name.length > 0 && name.length <= MAX_CHANNEL_NAME_LENGTH && CHANNEL_NAME.test(name);
}

export function channelKind(name: string): ChannelKind {
  if (name.startsWith('presence-')) return 'presence';
  if (name.startsWith('private-')) return 'private';
  return 'public';
}

export const isClientEvent = (event: string) => event.startsWith('client-');

/** One protocol frame. `data` travels as a JSON string for channel events (as the protocol does). */
export interface Frame {
  event: string;
  channel?: string;
  data?: unknown;
  user_id?: string;
}

export function encodeFrame(frame: Frame): string {
  return JSON.stringify(frame);
}

/** Frame for a `pusher:error`; `data` is an object (pusher-js reads `data.code` and `data.message`). */
export function errorFrame(code: number | null, message: string): string {
  return encodeFrame({ event: Events.error, data: { code, message } });
}
