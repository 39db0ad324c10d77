import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { DEMO_EMAIL, DEMO_PASSWORD } from '../demo/seed';
import { shellSettings } from '../shell/settings';
import { paymentProvider } from '../billing/payments/registry';
import { tenantAppVars } from '../whitelabel/tenant';

/**
 * GET /api/app-vars: the app version and the server variables of shell.md §3. Public. Carries the
 * realtime *key* only (the secret never leaves the server), and `demoLogin` only where this server
 * seeds the demo accounts (config.seedDemo), so the login page can offer it there and nowhere else.
 */
export function appVarsRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get('/api/app-vars', async (request) => {
    const { config } = ctx;
    return {
      'app.version': config.appVersion,
      errorReportingKey: null,
      analytics: { driver: process.env.ANALYTICS_DRIVER ?? 'none', writeKey: process.env.ANALYTICS_WRITE_KEY ?? null },
      // The payment provider's public key (local: 'local'; decision 0250); none with BILLING=off.
      paymentProviderKey: config.billing ? paymentProvider(ctx).publicKey : null,
      // BILLING=off: every workspace has the top plan; the app hides its billing screens (decision 0240).
      billing: config.billing,
      // Public forms ask for the bot check when it is configured (server/forms/bot-check-config.ts).
      botCheckSitekey: config.botCheck?.sitekey ?? null,
      broadcasting: {
        key: config.pusher.key,
        host: config.pusher.host ?? config.host,
        port: config.pusher.port ?? config.port,
        useTLS: config.pusher.useTLS,
        embedded: !config.pusher.host,
      },
      timeout: 30_000,
      mobileSyncThreshold: 500,
      // The tenant of the request's Host: its key, settings and app config (server/whitelabel/tenant.ts, decision 0265).
      ...(await tenantAppVars(ctx, request)),
      features: {},
      // The app loads GET /api/additional-scripts.js when an operator has set one (decision 0230).
      additionalScripts: Boolean((await shellSettings(ctx.db)).additional_scripts),
      // Where the status banner polls {host}/message; null = this server (decision 0230).
      statusHost: process.env.STATUS_HOST || null,
      demoLogin: config.seedDemo ? { email: DEMO_EMAIL, password: DEMO_PASSWORD } : null,
    };
  });
}
