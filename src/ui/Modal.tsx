import { useEffect, useId, useRef, type ReactNode, type MouseEvent } from 'react';
import { createPortal } from 'react-dom';
import { useLingui } from '@lingui/react/macro';
import { CloseIcon } from './icons';
import { useFocusTrap } from './focus';
import { useLayer } from './use-layer';

export interface ModalProps {
  open: boolean;
  /** Called on the close button, Escape or a click on the backdrop. */
  onClose: () => void;
  /** Shown as the heading and used as the dialog's accessible name. */
  title: ReactNode;
  children?: ReactNode;
  /** Buttons row at the bottom (end-aligned). */
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg' | 'full';
  /** Set false for dialogs that must be answered with a button (Escape and backdrop do nothing). */
  dismissible?: boolean;
  /** Ties the dialog to a description element for screen readers. */
  describedBy?: string;
  className?: string;
}

let openModals = 0;

/**
 * Modal dialog: role=dialog aria-modal, labelled by its title; focus is trapped inside and goes
 * back where it was on close. The page behind does not scroll while a modal is open.
 */
export function Modal({ open, onClose, title, children, footer, size = 'md', dismissible = true, describedBy, className }: ModalProps) {
  const { t } = useLingui();
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const pressStartedOnBackdrop = useRef(false);

  useLayer({
    open,
    inside: [panel],
    outsidePress: false, // the backdrop handles it, so drags that end outside do not close
    routeChange: false,
    onDismiss: () => dismissible && onClose(),
  });
  useFocusTrap(panel, open);

  useEffect(() => {
    if (!open) return;
    if (openModals++ === 0) document.documentElement.classList.add('ui-scroll-locked');
    return () => {
      if (--openModals === 0) document.documentElement.classList.remove('ui-scroll-locked');
    };
  }, [open]);

  if (!open) return null;

  const onBackdropDown = (event: MouseEvent) => {
    pressStartedOnBackdrop.current = event.target === event.currentTarget;
  };
  const onBackdropClick = (event: MouseEvent) => {
    if (dismissible && pressStartedOnBackdrop.current && event.target === event.currentTarget) onClose();
    pressStartedOnBackdrop.current = false;
  };

  return createPortal(
    <div className="ui-modal-backdrop" onMouseDown={onBackdropDown} onClick={onBackdropClick}>
      <div
        ref={panel}
        className={['ui-modal', `ui-modal--${size}`, className].filter(Boolean).join(' ')}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={describedBy}
        tabIndex={-1}
      >
        {/* divs, not header/footer: outside <main> those would become extra page landmarks */}
        <div className="ui-modal__header">
          <h2 id={titleId} className="ui-modal__title">
            {title}
          </h2>
          <button type="button" className="ui-button ui-button--ghost ui-button--icon ui-modal__close" aria-label={t`Close`} onClick={onClose}>
            <CloseIcon />
          </button>
        </div>
        <div className="ui-modal__body">{children}</div>
        {footer ? <div className="ui-modal__footer">{footer}</div> : null}
      </div>
    </div>,
    document.body,
  );
}
