import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { registerBoardJobKind, registerBoardJobRunner } from './runner';
import { csvImportKind } from './csv-import';
import { boardJobRoutes } from './routes';
import { pdfExportRoutes } from './pdf-export';
import { moveRoutes } from './move';

/**
 * Board jobs (issue #16, decisions 0160 and 0161): the step and cleanup jobs, the CSV import kind,
 * the routes of the progress tray, CSV import and CSV export. Other kinds (duplicate, move)
 * register with registerBoardJobKind from their own module.
 */
export function boardJobsModule(app: FastifyInstance, ctx: AppContext): void {
  registerBoardJobKind(csvImportKind);
  registerBoardJobRunner(ctx);
  boardJobRoutes(app, ctx);
  pdfExportRoutes(app, ctx);
  moveRoutes(app, ctx);
}
