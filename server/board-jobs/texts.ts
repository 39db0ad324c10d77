import type { Translate } from '../i18n/catalogs';
import { AttributeMessages } from '../../schema/attributes';
import { CsvImportMessages } from '../../schema/csv-import';
import type { BoardJob, BoardJobProblem } from '../../schema/board-jobs';

/**
 * A job's problems and failure reason in its reader's language (decision 0225, server catalogs of
 * decision 0155). Jobs store the English text (it also goes into logs and the notification);
 * GET /api/me/board-jobs translates the known ones for the user asking. Unknown texts (a kind's
 * own, another module's) stay as they are.
 */

function fixed(l10n: Translate): Map<string, string> {
  return new Map<string, string>([
    [CsvImportMessages.emptyRow, l10n('empty row')],
    [AttributeMessages.invalidNumber, l10n('enter a number')],
    [AttributeMessages.invalidDate, l10n('enter a valid date')],
    [AttributeMessages.invalidEmail, l10n('enter a valid email address')],
    [AttributeMessages.invalidUrl, l10n('provide a valid URL')],
    [AttributeMessages.unsafeUrl, l10n('a link must start with http:, https: or mailto:')],
    [AttributeMessages.unknownOption, l10n('choose one of the options')],
    [AttributeMessages.multipleLabel, l10n('A label cannot be chosen with multiple selections.')],
    [AttributeMessages.endBeforeStart, l10n('An item’s end date must not be before its start date.')],
    ['must be checked or unchecked', l10n('must be checked or unchecked')],
    ['The board or folder it was writing into is gone.', l10n('The board or folder it was writing into is gone.')],
    ['You may no longer add items there.', l10n('You may no longer add items there.')],
    ['You may no longer export this board.', l10n('You may no longer export this board.')],
    ['The view is gone or you may no longer see it.', l10n('The view is gone or you may no longer see it.')],
    ['The item is gone or you may no longer see it.', l10n('The item is gone or you may no longer see it.')],
    ['You can no longer view the board to duplicate.', l10n('You can no longer view the board to duplicate.')],
  ]);
}

/** One message in the reader's language, when it is one we know. */
export function translateJobText(message: string, l10n: Translate, known = fixed(l10n)): string {
  const same = known.get(message);
  if (same) return same;
  let m = /^has (\d+) fields, the header has (\d+)$/.exec(message);
  if (m) return l10n('has {found} fields, the header has {expected}', { found: Number(m[1]), expected: Number(m[2]) });
  m = /^the text is longer than (\d+) characters$/.exec(message);
  if (m) return l10n('the text is longer than {max} characters', { max: Number(m[1]) });
  return message;
}

/** A job as its reader gets it: problems and the failure reason translated. */
export function translatedJob(job: BoardJob, l10n: Translate): BoardJob {
  if (job.errors.length === 0 && !job.error) return job;
  const known = fixed(l10n);
  const problem = (p: BoardJobProblem): BoardJobProblem => ({ ...p, message: translateJobText(p.message, l10n, known) });
  return { ...job, errors: job.errors.map(problem), error: job.error ? translateJobText(job.error, l10n, known) : null };
}
