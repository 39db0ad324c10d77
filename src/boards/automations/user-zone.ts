import { isTimeZone } from '../../../schema/automations';
import { useSession } from '../../api/session';

/**
 * The time zone date triggers are set in: the user's profile zone (Settings → time zone), else
 * the browser's. The issue asks for "a time in the user's timezone"; the browser's zone is only
 * the fallback for people who never chose one.
 */
export function useUserZone(): string {
  const session = useSession();
  const profile = session.status === 'signedIn' ? session.user : null;
  const chosen = profile?.timezone;
  return chosen && isTimeZone(chosen) ? chosen : Intl.DateTimeFormat().resolvedOptions().timeZone;
}
