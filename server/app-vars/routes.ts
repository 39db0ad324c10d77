import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';

/** GET /api/app-vars: the app version and the server variables of shell.md §3. Public. */
export function appVarsRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get('/api/app-vars', async () => {
    const { config } = ctx;
    return {
      'app.version': config.appVersion,
      errorReportingKey: null,
      analytics: { driver: process.env.ANALYTICS_DRIVER ?? 'none', writeKey: process.env.ANALYTICS_WRITE_KEY ?? null },
      paymentProviderKey: null,
      botCheckSitekey: null,
      broadcasting: {
        key: config.pusher.key,
        host: config.pusher.host ?? config.host,
        port: config.pusher.port ?? config.port,
        useTLS: config.pusher.useTLS,
        embedded: !config.pusher.host,
      },
      timeout: 30_000,
      mobileSyncThreshold: 500,
      tenantKey: process.env.TENANT_KEY ?? null,
      features: {},
      additionalScripts: false,
    };
  });
}
