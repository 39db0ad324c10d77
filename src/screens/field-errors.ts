import { msg } from '@lingui/core/macro';
import { i18n } from '@lingui/core';
import { Messages } from '../../schema/messages';
import { ApiRequestError } from '../api/client';
import { translateMessage } from '../i18n/server-messages';
import { sortProblems, type Problem } from './field-problems';

/**
 * A 422 answer read for a form (issue #17 part 6): each problem goes under its own field in plain
 * words instead of one line "Validation Error: email: is required". Problems of fields the form
 * does not show, and answers without a list, stay one message above the button.
 */
export interface FormProblems {
  fields: Record<string, string>;
  message: string | null;
}

export function plainProblem(problem: Problem): string {
  switch (problem.kind) {
    case 'required':
      return i18n._(msg`Please fill this in.`);
    case 'email':
      return i18n._(msg`Enter an email address such as name@example.com.`);
    case 'min':
      return i18n._(msg`Use at least ${problem.n} characters.`);
    case 'max':
      return i18n._(msg`Use at most ${problem.n} characters.`);
    case 'timezone':
      return i18n._(msg`Pick a time zone from the list.`);
    case 'language':
      return i18n._(msg`Pick a language from the list.`);
    case 'url':
      return i18n._(msg`Enter a full web address starting with https://.`);
    default:
      return problem.text;
  }
}

/** Splits a failure into field problems (for the names in `shown`) and the rest; null when it is not a 422. */
export function formProblemsOf(error: unknown, shown: ReadonlySet<string>): FormProblems | null {
  if (!(error instanceof ApiRequestError) || error.status !== 422) return null;
  const list = Array.isArray(error.body?.data) ? (error.body!.data as unknown[]).filter((x): x is string => typeof x === 'string') : [];
  const message = error.body?.message ?? '';
  if (list.length === 0 || !message.startsWith(Messages.validationPrefix)) return { fields: {}, message: translateMessage(message) || i18n._(msg`Something Went Wrong`) };
  const sorted = sortProblems(list, shown);
  const fields = Object.fromEntries(Object.entries(sorted.fields).map(([name, problem]) => [name, plainProblem(problem)]));
  const rest = sorted.rest.map(({ path, problem }) => (path ? `${path}: ${plainProblem(problem)}` : plainProblem(problem)));
  return { fields, message: rest.length ? rest.join(' ') : null };
}
