import { isEmailNotVerified, isReauthResponse, toastMessageFor, type ApiErrorBody } from '../../schema/api-error';
import { pathFor } from '../../schema/routes';

/** What the shell does with a failed API response (shell.md §8). */
export type ErrorOutcome =
  | { kind: 'reauth'; to: string }
  | { kind: 'verify-email'; to: string }
  | { kind: 'toast'; text: string };

/**
 * A reauth 401 goes to auth.reauthenticate remembering where the user was; "Your email address is
 * not verified." goes to verify-email with no toast; everything else is a toast in the spec's order.
 */
export function outcomeForError(status: number, body: ApiErrorBody | null | undefined, currentHref: string): ErrorOutcome {
  if (isReauthResponse(status, body)) {
    const already = currentHref.startsWith(pathFor('auth.reauthenticate'));
    return { kind: 'reauth', to: already ? currentHref : `${pathFor('auth.reauthenticate')}?redirect=${encodeURIComponent(currentHref)}` };
  }
  if (isEmailNotVerified(body)) return { kind: 'verify-email', to: pathFor('verify-email') };
  return { kind: 'toast', text: toastMessageFor(status, body) };
}
