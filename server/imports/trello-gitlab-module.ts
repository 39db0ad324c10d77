import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { registerBoardJobKind } from '../board-jobs/runner';
import { gitlabImportKind, trelloImportKind } from './plan-job';
import { trelloGitlabRoutes } from './trello-gitlab-routes';

/** Trello and Gitlab imports (issue #16, decision 0220): their board job kinds and routes. */
export function trelloGitlabImportsModule(app: FastifyInstance, ctx: AppContext): void {
  registerBoardJobKind(trelloImportKind);
  registerBoardJobKind(gitlabImportKind);
  trelloGitlabRoutes(app, ctx);
}
