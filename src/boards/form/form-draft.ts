import type { FormField } from '../../../schema/views';

/**
 * The builder's pure edits of a form's questions (kept out of the component so they are tested
 * alone): move one up or down, add one at the end, remove one, change one.
 */
export function moveField(fields: readonly FormField[], index: number, by: -1 | 1): FormField[] {
  const to = index + by;
  if (index < 0 || index >= fields.length || to < 0 || to >= fields.length) return [...fields];
  const next = [...fields];
  [next[index], next[to]] = [next[to]!, next[index]!];
  return next;
}

export function addField(fields: readonly FormField[], attributeId: string): FormField[] {
  if (fields.some((f) => f.attribute_id === attributeId)) return [...fields];
  return [...fields, { attribute_id: attributeId, label: '', help: '', required: false }];
}

export function removeField(fields: readonly FormField[], attributeId: string): FormField[] {
  return fields.filter((f) => f.attribute_id !== attributeId);
}

export function changeField(fields: readonly FormField[], attributeId: string, patch: Partial<Omit<FormField, 'attribute_id'>>): FormField[] {
  return fields.map((f) => (f.attribute_id === attributeId ? { ...f, ...patch } : f));
}

/** The public address of a form (its id is the Form view's id). */
export const formLink = (origin: string, formId: string) => `${origin}/form/${encodeURIComponent(formId)}`;
