import { msg } from '@lingui/core/macro';
import { i18n } from '@lingui/core';
import { TOAST_ERROR_MS } from '../../schema/constants';
import { toast } from '../ui/toast-store';
import { outcomeForError } from '../navigation/api-errors';
import { translateMessage } from '../i18n/server-messages';
import { toastOfflineAction } from '../connectivity/messages';
import { previewMode } from '../navigation/preview-instance';
import { ApiRequestError, OFFLINE_STATUS } from './client';

type Navigate = (href: string) => void;
let navigate: Navigate = (href) => window.location.assign(href);
/** The router installs its own navigate so redirects stay in the app. */
export const setErrorNavigator = (fn: Navigate) => {
  navigate = fn;
};

/**
 * The shell's answer to a failed call (shell.md §8): offline → the 10 s offline toast; reauth →
 * auth.reauthenticate; unverified email → verify-email with no toast; otherwise a 5 s toast with
 * the message in the spec's order, translated. Preview mode shows its own message instead.
 */
export function showApiError(error: unknown) {
  if (!(error instanceof ApiRequestError)) {
    toast.show(i18n._(msg`Something Went Wrong`), { kind: 'error', duration: TOAST_ERROR_MS });
    return;
  }
  if (error.status === OFFLINE_STATUS) return toastOfflineAction();
  const here = window.location.pathname + window.location.search;
  const outcome = outcomeForError(error.status, error.body, here);
  if (outcome.kind !== 'toast') return navigate(outcome.to);
  const text = previewMode.on ? i18n._(msg`This feature is not available in preview mode.`) : translateMessage(outcome.text);
  toast.show(text, { kind: 'error', duration: TOAST_ERROR_MS });
}
