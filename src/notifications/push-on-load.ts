import { showApiError } from '../api/handle-error';
import { translateMessage } from '../i18n/server-messages';
import { TOAST_ERROR_MS } from '../../schema/constants';
import { toast } from '../ui/toast-store';
import { enablePush, PushDeniedError, pushSupported } from './push';
import { shouldAskOnLoad } from './push-on-load-rule';

/** Running as the installed app (Android/desktop display mode, iOS home screen). */
function installed(): boolean {
  const iosStandalone = (navigator as Navigator & { standalone?: boolean }).standalone === true;
  return iosStandalone || (typeof matchMedia === 'function' && matchMedia('(display-mode: standalone)').matches);
}

/**
 * Push on the installed app (shell.md §6 "Push (mobile): on profile load of a non-guest, push
 * permission is requested if still prompt. If not granted an error is thrown. Otherwise the device
 * registers"; S4.26, W4.23). The web's counterpart of the phone app is the installed app (display
 * mode standalone): there the permission is asked once the signed-in profile has loaded, while the
 * browser still has it at "prompt"; a refusal says "User denied permissions!", a failed
 * registration shows the usual alert. In a browser tab it is asked only from the settings screen
 * (browsers hold back prompts nobody asked for).
 */
export async function askPushOnLoad(guest: boolean): Promise<void> {
  if (!pushSupported()) return;
  if (!shouldAskOnLoad({ standalone: installed(), permission: Notification.permission, guest })) return;
  try {
    await enablePush();
  } catch (error) {
    if (error instanceof PushDeniedError) toast.show(translateMessage(error.message), { kind: 'error', duration: TOAST_ERROR_MS });
    else showApiError(error);
  }
}
