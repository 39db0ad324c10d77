import { useId, useRef, useSyncExternalStore, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { useLingui } from '@lingui/react/macro';
import { DESKTOP_BREAKPOINT_PX } from '../../schema/constants';
import { CloseIcon } from './icons';
import { useFocusTrap } from './focus';
import { Modal, type ModalProps } from './Modal';
import { floatingStyle, useFloating } from './use-floating';
import { useLayer } from './use-layer';

export interface PopoverProps extends Omit<ModalProps, 'size' | 'dismissible'> {
  /** The control it opens from (a toolbar button): the popover hangs under it. */
  anchor: RefObject<HTMLElement | null>;
}

const desktopQuery = `(min-width: ${DESKTOP_BREAKPOINT_PX}px)`;
const subscribe = (listener: () => void) => {
  const list = matchMedia(desktopQuery);
  list.addEventListener('change', listener);
  return () => list.removeEventListener('change', listener);
};

/**
 * A small form that hangs from the control that opened it (issue #17 part 4: sort, filter and group
 * as popovers, not modal forms): role=dialog labelled by its title, not modal — the page stays
 * usable and scrolls; focus moves in and returns to the control; Escape, a press outside or a route
 * change close it. On a phone it is the Modal's bottom sheet instead.
 */
export function Popover(props: PopoverProps) {
  const desktop = useSyncExternalStore(subscribe, () => matchMedia(desktopQuery).matches, () => true);
  if (!desktop) return <Modal {...props} />;
  return <AnchoredPopover {...props} />;
}

function AnchoredPopover({ open, onClose, title, children, footer, anchor, describedBy, className }: PopoverProps) {
  const { t } = useLingui();
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  useLayer({ open, inside: [panel, anchor], onDismiss: onClose });
  useFocusTrap(panel, open);
  const position = useFloating(open, anchor, panel, { side: 'bottom', align: 'start' }, { distance: 6 });
  if (!open) return null;
  return createPortal(
    <div
      ref={panel}
      className={['ui-popover', className].filter(Boolean).join(' ')}
      style={floatingStyle(position)}
      role="dialog"
      aria-labelledby={titleId}
      aria-describedby={describedBy}
      tabIndex={-1}
    >
      <div className="ui-popover__header">
        <h2 id={titleId} className="ui-popover__title">
          {title}
        </h2>
        <button type="button" className="ui-button ui-button--ghost ui-button--icon ui-button--sm" aria-label={t`Close`} onClick={onClose}>
          <CloseIcon size={16} />
        </button>
      </div>
      <div className="ui-popover__body">{children}</div>
      {footer ? <div className="ui-popover__footer">{footer}</div> : null}
    </div>,
    document.body,
  );
}
