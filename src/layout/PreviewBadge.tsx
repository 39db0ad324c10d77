import { Suspense, useSyncExternalStore } from 'react';
import { lazyRetry } from '../ui/lazy-retry';
import { previewMode } from '../navigation/preview-instance';

/** The badge itself is loaded only by a preview tab (the app shell's first load stays as it was). */
const PreviewBadgeContent = lazyRetry(() => import('./PreviewBadgeContent'));

const subscribe = (listener: () => void) => previewMode.subscribe(listener);
const isOn = () => previewMode.on;

/** The frame's "Preview" badge slot: shown for as long as the tab is in preview (pretend) mode (decision 0280). */
export function PreviewBadge() {
  const on = useSyncExternalStore(subscribe, isOn, isOn);
  if (!on) return null;
  return (
    <Suspense fallback={null}>
      <PreviewBadgeContent />
    </Suspense>
  );
}
