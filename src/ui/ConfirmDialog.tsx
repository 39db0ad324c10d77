import { useId, useSyncExternalStore } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Button } from './Button';
import { Modal } from './Modal';
import { confirmStore, type ConfirmStore } from './confirm-store';

export interface ConfirmDialogProps {
  open: boolean;
  message?: string;
  title?: string;
  confirmLabel?: string;
  cancelLabel?: string;
  danger?: boolean;
  onAnswer: (yes: boolean) => void;
}

/**
 * "Are you sure?" with Cancel and Yes. Escape and a click outside mean Cancel. Focus starts on
 * Yes, or on Cancel when the action is destructive (`danger`).
 */
export function ConfirmDialog({ open, message, title, confirmLabel, cancelLabel, danger, onAnswer }: ConfirmDialogProps) {
  const { t } = useLingui();
  const messageId = useId();
  const text = message ?? t`Are you sure?`;
  return (
    <Modal
      open={open}
      size="sm"
      onClose={() => onAnswer(false)}
      title={title ?? text}
      describedBy={title ? messageId : undefined}
      footer={
        <>
          <Button variant="secondary" onClick={() => onAnswer(false)} data-autofocus={danger ? true : undefined}>
            {cancelLabel ?? t`Cancel`}
          </Button>
          <Button variant={danger ? 'danger' : 'primary'} onClick={() => onAnswer(true)} data-autofocus={danger ? undefined : true}>
            {confirmLabel ?? t`Yes`}
          </Button>
        </>
      }
    >
      {title ? <p id={messageId}>{text}</p> : null}
    </Modal>
  );
}

/** Renders the dialogs asked for through `confirm()`. Mount once (UiHost does). */
export function ConfirmHost({ store = confirmStore }: { store?: ConfirmStore }) {
  const current = useSyncExternalStore(store.subscribe, store.current, store.current);
  if (!current) return null;
  return (
    <ConfirmDialog
      key={current.id}
      open
      message={current.message}
      title={current.title}
      confirmLabel={current.confirmLabel}
      cancelLabel={current.cancelLabel}
      danger={current.danger}
      onAnswer={(yes) => store.answer(current.id, yes)}
    />
  );
}
