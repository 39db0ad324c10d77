import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useLingui } from '@lingui/react/macro';
import { MoreIcon } from './icons';
import { MenuList, type MenuItem } from './MenuList';
import type { Align, Side } from './position';
import { floatingStyle, useFloating } from './use-floating';
import { useLayer } from './use-layer';
import { useOpenState, type OpenStateProps } from './use-open-state';

export interface MenuTriggerProps {
  ref: (node: HTMLElement | null) => void;
  id: string;
  'aria-haspopup': 'menu';
  'aria-expanded': boolean;
  'aria-controls': string | undefined;
  onClick: () => void;
  onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
}

export interface PopupMenuProps extends OpenStateProps {
  items: readonly MenuItem[];
  /** Accessible name of the default "⋮" trigger; defaults to "More actions". */
  label?: string;
  /** Custom trigger: spread the given props onto a button. */
  renderTrigger?: (props: MenuTriggerProps) => ReactNode;
  side?: Side;
  align?: Align;
  className?: string;
}

/**
 * A menu opened from a button. Closes on outside click, Escape (focus returns to the button),
 * a choice, Tab, or a route change (`popstate` or the router's `cairn:navigate` event).
 */
export function PopupMenu({ items, label, renderTrigger, side = 'bottom', align = 'end', className, ...openProps }: PopupMenuProps) {
  const { t } = useLingui();
  const [open, setOpen] = useOpenState(openProps);
  const triggerId = useId();
  const menuId = useId();
  const trigger = useRef<HTMLElement | null>(null);
  const menu = useRef<HTMLDivElement>(null);
  const position = useFloating(open, trigger, menu, { side, align });

  const close = (refocus: boolean) => {
    if (refocus) trigger.current?.focus();
    return setOpen(false);
  };
  useLayer({
    open,
    inside: [menu, trigger],
    onDismiss: (reason) => void close(reason === 'escape'),
  });

  const triggerProps: MenuTriggerProps = {
    ref: (node) => {
      trigger.current = node;
    },
    id: triggerId,
    'aria-haspopup': 'menu',
    'aria-expanded': open,
    'aria-controls': open ? menuId : undefined,
    onClick: () => void setOpen(!open),
    onKeyDown: (event) => {
      if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && !open) {
        event.preventDefault();
        void setOpen(true);
      }
    },
  };

  return (
    <>
      {renderTrigger ? (
        renderTrigger(triggerProps)
      ) : (
        <button type="button" className="ui-button ui-button--ghost ui-button--icon ui-button--md" aria-label={label ?? t`More actions`} {...triggerProps}>
          <MoreIcon />
        </button>
      )}
      {open
        ? createPortal(
            <MenuList
              ref={menu}
              id={menuId}
              items={items}
              labelledBy={triggerId}
              className={['ui-popup-menu', className].filter(Boolean).join(' ')}
              style={floatingStyle(position)}
              onClose={(reason) => close(reason === 'select')}
            />,
            document.body,
          )
        : null}
    </>
  );
}
