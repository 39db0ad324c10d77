import { ApiRequestError } from '../../api/client';
import { translateMessage } from '../../i18n/server-messages';

/**
 * Validation answers (422) belong next to the form that caused them; other failures go to the
 * shell's handling (toast, reauth, offline). Returns the text to show inline, or null.
 */
export function inlineErrorOf(error: unknown): string | null {
  if (error instanceof ApiRequestError && error.status === 422) return translateMessage(error.body?.message ?? '');
  return null;
}
