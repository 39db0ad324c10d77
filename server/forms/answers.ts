import { checkValue, isEmptyValue, type AttributeLike } from '../../schema/attributes';
import type { FormField } from '../../schema/views';

/**
 * Judges a visitor's answers against the form's fields with the attribute rules (checkValue: the
 * same checks as any saved value) and the form's own "required". Pure.
 *
 * Only the form's fields are taken: an answer for anything else is refused, so a visitor cannot
 * write an attribute the form does not ask for. Attachments come only as uploaded files (never as
 * addresses typed into the JSON), so `files` says which fields got some.
 */

export const FormMessages = {
  formHasError: 'The form has an error, fix it',
  required: 'this field is required',
  notAsked: 'this form does not ask for it',
  filesOnly: 'attach files to this field',
} as const;

export interface CheckedAnswers {
  /** Normalised values by attribute id (empty answers left out). */
  values: Map<string, unknown>;
  /** Problems by attribute id (the form's "fields" map of the 422). */
  problems: Record<string, string>;
}

export function checkAnswers(
  fields: readonly FormField[],
  attributes: ReadonlyMap<string, AttributeLike>,
  answers: Record<string, unknown>,
  files: ReadonlySet<string> = new Set(),
): CheckedAnswers {
  const values = new Map<string, unknown>();
  const problems: Record<string, string> = {};
  const asked = new Set(fields.map((f) => f.attribute_id));
  for (const key of Object.keys(answers)) if (!asked.has(key)) problems[key.slice(0, 64)] = FormMessages.notAsked;
  for (const field of fields) {
    const attribute = attributes.get(field.attribute_id);
    if (!attribute) continue;
    const raw = Object.hasOwn(answers, field.attribute_id) ? answers[field.attribute_id] : null;
    if (attribute.kind === 'attachments') {
      if (!isEmptyValue(raw)) problems[field.attribute_id] = FormMessages.filesOnly;
      else if (field.required && !files.has(field.attribute_id)) problems[field.attribute_id] = FormMessages.required;
      continue;
    }
    // A checkbox is answered either way; "required" means it must be ticked (consent boxes).
    const text = typeof raw === 'string' ? (attribute.kind === 'long-text' && raw.trim() !== '' ? raw : raw.trim()) : raw;
    const checked = checkValue(attribute, text);
    if (!checked.ok) {
      problems[field.attribute_id] = checked.message;
      continue;
    }
    if (isEmptyValue(checked.value)) {
      if (field.required) problems[field.attribute_id] = FormMessages.required;
      continue;
    }
    values.set(field.attribute_id, checked.value);
  }
  return { values, problems };
}
