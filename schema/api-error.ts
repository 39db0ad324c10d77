import { Messages } from './messages';

/**
 * The one error body every API endpoint answers with:
 *   { message, type?, data? }
 * `message` is always a sentence fit to show a person. `type` names a machine-readable case
 * (e.g. "reauth", "validation", "offline"). `data` carries details: the list of validation
 * messages on 422, the stored record on 409, the users still added on a partial invitation.
 */
export interface ApiErrorBody {
  message?: string;
  type?: string;
  data?: unknown;
}

/** The toast text for a failed response, in the order of shell.md §8. */
export function toastMessageFor(status: number, body: ApiErrorBody | null | undefined): string {
  if (body && typeof body.message === 'string' && body.message.length > 0) return body.message;
  if (status === 401 || status === 403) return Messages.unauthorized;
  if (status === 404) return Messages.notFound;
  if (status === 409) return Messages.conflict;
  if (status === 422 && body && Array.isArray(body.data)) return Messages.validationPrefix + body.data.join(', ');
  return Messages.somethingWentWrong;
}

/** A 401 whose type is `reauth` sends the user to auth.reauthenticate rather than showing a toast. */
export function isReauthResponse(status: number, body: ApiErrorBody | null | undefined): boolean {
  return status === 401 && body?.type === 'reauth';
}

/** "Your email address is not verified." sends the user to verify-email with no toast. */
export function isEmailNotVerified(body: ApiErrorBody | null | undefined): boolean {
  return body?.message === Messages.emailNotVerified;
}
