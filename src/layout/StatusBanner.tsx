import { useEffect, useState } from 'react';
import { STATUS_BANNER_HEIGHT_PX } from '../../schema/constants';
import { appVars } from '../app-vars';
import { createStatusPoller, readMessage } from '../navigation/status-poll';
import './shell-rules.css';

const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;

/**
 * The status banner (shell.md §3, §4, §9): a 42 px line at the top of the frame with the text an
 * operator set (server/shell, decision 0230), asked from `{host}/message` while the user is active
 * (src/navigation/status-poll.ts). Not shown in preview mode's embeds (`hide_header`) either way.
 */
export function StatusBanner() {
  const [content, setContent] = useState<string | null>(null);
  useEffect(() => {
    const host = typeof appVars.get().statusHost === 'string' ? String(appVars.get().statusHost).replace(/\/$/, '') : '';
    const poller = createStatusPoller(
      {
        now: () => Date.now(),
        setTimeout: (fn, ms) => window.setTimeout(fn, ms),
        clearTimeout: (handle) => window.clearTimeout(handle as number),
        fetchMessage: async () => readMessage(await fetch(`${host}/message`, { cache: 'no-store', credentials: 'omit' })),
        hidden: () => document.visibilityState === 'hidden',
      },
      setContent,
    );
    const onActivity = () => poller.activity();
    const onVisibility = () => (document.visibilityState === 'hidden' ? poller.hide() : poller.activity());
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, onActivity, { passive: true, capture: true });
    document.addEventListener('visibilitychange', onVisibility);
    // Opening the app is activity: the first ask comes 10 s after it settles.
    poller.activity();
    return () => {
      poller.stop();
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, onActivity, { capture: true });
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, []);
  if (!content) return null;
  return (
    <div className="shell-status-banner" role="status" data-testid="status-banner" style={{ height: STATUS_BANNER_HEIGHT_PX }}>
      <span>{content}</span>
    </div>
  );
}
