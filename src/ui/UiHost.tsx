import { ConfirmHost } from './ConfirmDialog';
import { Toaster } from './Toaster';

/** Mount once near the root of the app: renders toasts and `confirm()` dialogs. */
export function UiHost() {
  return (
    <>
      <Toaster />
      <ConfirmHost />
    </>
  );
}
