import type { AppContext } from '../../context';
import { ConfigError } from '../../secrets';
import { createLocalProvider } from './local';
import type { PaymentProvider } from './provider';
import { recordProviderEvent } from './events';

/**
 * Which payment provider a server uses (decision 0250): `PAYMENT_PROVIDER` = `local` (default, no
 * network) or a key another module registers (the Stripe provider registers `stripe`). One
 * provider per app context, made on first use.
 */

type Factory = (ctx: AppContext) => PaymentProvider;

const factories = new Map<string, Factory>([
  ['local', (ctx) => createLocalProvider({ now: () => ctx.now(), emit: async (event) => void (await recordProviderEvent(ctx, 'local', event)) })],
]);
const providers = new WeakMap<AppContext, PaymentProvider>();

/** Adds a provider under a key PAYMENT_PROVIDER can name (call from a module's registration). */
export function registerPaymentProvider(key: string, factory: Factory): void {
  factories.set(key, factory);
}

export function paymentProviderKey(env: NodeJS.ProcessEnv = process.env): string {
  return env.PAYMENT_PROVIDER?.trim().toLowerCase() || 'local';
}

/** The context's provider. An unknown PAYMENT_PROVIDER is a configuration error, named. */
export function paymentProvider(ctx: AppContext): PaymentProvider {
  let provider = providers.get(ctx);
  if (!provider) {
    const key = paymentProviderKey();
    const factory = factories.get(key);
    if (!factory) throw new ConfigError(`PAYMENT_PROVIDER must be one of ${[...factories.keys()].join(', ')}, not "${key}".`);
    provider = factory(ctx);
    providers.set(ctx, provider);
  }
  return provider;
}

/** Tests: use this provider for the context. */
export function setPaymentProvider(ctx: AppContext, provider: PaymentProvider): void {
  providers.set(ctx, provider);
}
