import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { i18n } from '@lingui/core';

/**
 * The English texts a public form's answers can be refused with (server/forms/answers.ts and the
 * attribute rules of schema/attributes.ts), as Lingui messages, so a visitor reads them in their
 * language. Kept here, not imported from schema/, so this page does not carry the schema's zod
 * code. An unknown text is shown as sent.
 */
const known = new Map<string, MessageDescriptor>([
  ['The form has an error, fix it', msg`The form has an error, fix it`],
  ['this field is required', msg`This question must be answered.`],
  ['this form does not ask for it', msg`This form does not ask for it.`],
  ['attach files to this field', msg`Attach files here.`],
  ['enter a valid email address', msg`Enter a valid email address.`],
  ['provide a valid URL', msg`Provide a valid URL.`],
  ['a link must start with http:, https: or mailto:', msg`A link must start with http:, https: or mailto:`],
  ['enter a number', msg`Enter a number.`],
  ['enter a valid date', msg`Enter a valid date.`],
  ["An item's end date must not be before its start date.", msg`The end date must not be before the start date.`],
  ['choose one of the options', msg`Choose one of the options.`],
  ['A label cannot be chosen with multiple selections.', msg`A label cannot be chosen with multiple selections.`],
  ['The bot check did not pass. Please try again.', msg`The bot check did not pass. Please try again.`],
  ['Something Went Wrong', msg`Something Went Wrong`],
  ['This action is not available when you are offline.', msg`This action is not available when you are offline.`],
]);

export function formMessage(text: string): string {
  if (text.startsWith('Too many attempts.')) return i18n._(msg`Too many answers from your address. Please try again later.`);
  if (text.startsWith('The file is too large.')) return i18n._(msg`A file is too large. Each file must be under 10 MB.`);
  const descriptor = known.get(text);
  return descriptor ? i18n._(descriptor) : text;
}
