import type { FastifyInstance } from 'fastify';
import type { AppContext } from './context';
import { appVarsRoutes } from './app-vars/routes';
import { accountsRoutes } from './accounts/routes';
import { filesRoutes } from './files/routes';
import { realtimeRoutes } from './realtime/routes';
import { workspacesRoutes } from './workspaces/routes';
import { syncRoutes } from './sync/routes';
import { conflictRoutes } from './sync/conflicts';
import { boardAccessRoutes } from './board-access/routes';
import { notificationsModule } from './notifications/module';
import { serverIdentityRoutes } from './sync/identity';
import { eventsRoutes } from './events/module';
import { healthRoutes } from './ops/health';
import { metricsRoutes } from './ops/metrics';
import { automationsModule } from './automations/module';
import { developerModule } from './developer/module';
import { hooksModule } from './hooks/module';
import { boardJobsModule } from './board-jobs/module';
import { trelloGitlabImportsModule } from './imports/trello-gitlab-module';
import { templatesModule } from './templates/module';
import { formsRoutes } from './forms/routes';
import { pageStylesRoute } from './http/html-page';
import { docsModule } from './docs/module';
import { shellRoutes } from './shell/routes';
import { billingModule } from './billing/module';
import { ssoRoutes } from './sso/routes';
import { whitelabelModule } from './whitelabel/module';
import { referralModule } from './referral/routes';
import { limitsModule } from './billing/limits-module';

/** A domain module: registers its routes on the app with the shared context. */
export type Module = (app: FastifyInstance, ctx: AppContext) => void | Promise<void>;

/** Every API module, registered in this order. Add a line for yours. */
export const modules: Module[] = [
  // First: its onSend hook names the database on every answer (decision 0102).
  serverIdentityRoutes,
  // Health, readiness and Prometheus metrics (decision 0191); early, so its hook times every route.
  healthRoutes,
  metricsRoutes,
  appVarsRoutes,
  // Shell rules: status message, client log, additional scripts, update headers (decision 0230).
  shellRoutes,
  accountsRoutes,
  // Single sign-on: workspace settings and the OpenID Connect sign-in (decision 0270).
  ssoRoutes,
  filesRoutes,
  realtimeRoutes,
  workspacesRoutes,
  // Plans, subscription states and trials (decision 0240).
  billingModule,
  // White label: settings, assets, domain, SMTP, tenant by Host (decision 0265).
  whitelabelModule,
  // Referral programme: links, invitations, 20 % credits of paid invoices (decision 0260).
  referralModule,
  // Storage warnings at 80 % / 100 % of the plan, from upload events (decision 0260).
  limitsModule,
  syncRoutes,
  // Each user's conflicts on the server: report, list, resolve (decision 0346).
  conflictRoutes,
  boardAccessRoutes,
  notificationsModule,
  // Automations: run log and usage, the consumer, run and clock jobs (decision 0150).
  automationsModule,
  // Webhooks: API, event consumer, delivery jobs (decision 0140).
  hooksModule,
  // Document bodies: compaction of their Yjs updates (decision 0135).
  docsModule,
  // Templates (built-in gallery, custom templates, sharing) and board duplication (decision 0165).
  templatesModule,
  // Domain events, jobs and the activity log (decision 0110).
  eventsRoutes,
  // Personal access tokens and OAuth apps (decision 0145).
  developerModule,
  // Background board jobs, CSV import and export (decisions 0160, 0161).
  boardJobsModule,
  // Trello and Gitlab imports: board job kinds and routes (decision 0220).
  trelloGitlabImportsModule,
  // Public forms: anyone answers an enabled Form view (decision 0130).
  formsRoutes,
  // The stylesheet of the server's own pages: public forms, published documents (decision 0210).
  pageStylesRoute,
];
