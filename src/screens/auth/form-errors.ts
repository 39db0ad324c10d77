import { formProblemsOf } from '../field-errors';

/**
 * Validation answers (422) belong next to the form that caused them; other failures go to the
 * shell's handling (toast, reauth, offline). Returns the text to show inline, in plain words
 * (src/screens/field-errors.ts), or null. Forms with fields use useFieldErrors instead.
 */
export function inlineErrorOf(error: unknown): string | null {
  return formProblemsOf(error, new Set())?.message ?? null;
}
