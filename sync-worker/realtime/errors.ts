import { Messages } from '../../schema/messages';

/**
 * shell.md §8 "Unauthorized": the multi-auth answer for a channel was missing or not 200.
 * `status` is the entry's status (undefined when the entry was missing).
 */
export class RealtimeUnauthorizedError extends Error {
  readonly kind = 'unauthorized';
  constructor(
    readonly channel: string,
    readonly status?: number,
  ) {
    super(Messages.unauthorized);
    this.name = 'Unauthorized';
  }
}

/** Channel authorisation could not be asked (no answer, or the server kept failing). Retried on reconnect. */
export class RealtimeAuthUnavailableError extends Error {
  readonly kind = 'auth-unavailable';
  constructor(
    readonly channel: string,
    message: string,
  ) {
    super(message);
    this.name = 'RealtimeAuthUnavailable';
  }
}
