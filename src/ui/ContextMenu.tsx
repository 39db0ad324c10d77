import { useEffect, useRef, useState, type MouseEvent, type KeyboardEvent, type PointerEvent as ReactPointerEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useLingui } from '@lingui/react/macro';
import { DESKTOP_BREAKPOINT_PX, GESTURE_PRESS_MS, TOUCH_TAP_TOLERANCE_PX } from '../../schema/constants';
import { MenuList, type MenuItem } from './MenuList';
import { floatingStyle, useFloating } from './use-floating';
import { useLayer } from './use-layer';
import { useOpenState, type OpenStateProps } from './use-open-state';

export interface ContextMenuProps extends OpenStateProps {
  items: readonly MenuItem[];
  /** The area that opens the menu on right click, a touch press of 251 ms, or Shift+F10. */
  children: ReactNode;
  /** Accessible name of the menu; defaults to "Actions". */
  label?: string;
  /** Heading of the bottom sheet on small screens. */
  title?: ReactNode;
  className?: string;
}

function useIsNarrow(): boolean {
  const query = `(max-width: ${DESKTOP_BREAKPOINT_PX - 1}px)`;
  const [narrow, setNarrow] = useState(() => typeof matchMedia === 'function' && matchMedia(query).matches);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const list = matchMedia(query);
    const update = () => setNarrow(list.matches);
    list.addEventListener('change', update);
    return () => list.removeEventListener('change', update);
  }, [query]);
  return narrow;
}

/**
 * A context menu: at the pointer on desktop, as a bottom sheet on small screens. Its open state
 * can live in the URL (`queryKey` → `?key=on`), so the phone's Back button closes the sheet.
 * Without a pointer position (opened from the URL or by keyboard) it sits at the area's corner.
 */
export function ContextMenu({ items, children, label, title, className, ...openProps }: ContextMenuProps) {
  const { t } = useLingui();
  const [open, setOpen] = useOpenState(openProps);
  const [point, setPoint] = useState<{ x: number; y: number } | null>(null);
  const area = useRef<HTMLDivElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  const narrow = useIsNarrow();
  const position = useFloating(open && !narrow, area, menu, { side: 'bottom', align: 'start' }, { anchorPoint: point });

  const close = (refocus: boolean) => {
    setPoint(null);
    if (refocus && returnFocus.current?.isConnected) returnFocus.current.focus();
    return setOpen(false);
  };
  useLayer({ open, inside: [menu], onDismiss: (reason) => void close(reason === 'escape') });

  const onContextMenu = (event: MouseEvent<HTMLDivElement>) => {
    event.preventDefault();
    cancelPress();
    returnFocus.current = document.activeElement as HTMLElement | null;
    setPoint({ x: event.clientX, y: event.clientY });
    void setOpen(true);
  };
  // Touch press: iOS fires no contextmenu event, so a held finger (within the tap tolerance)
  // opens the menu itself, and the click that follows the lift is swallowed.
  const press = useRef<{ timer: ReturnType<typeof setTimeout>; x: number; y: number } | null>(null);
  const swallowClick = useRef(false);
  const cancelPress = () => {
    if (press.current) clearTimeout(press.current.timer);
    press.current = null;
  };
  useEffect(() => cancelPress, []);
  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    swallowClick.current = false;
    if (event.pointerType !== 'touch') return;
    cancelPress();
    const { clientX: x, clientY: y } = event;
    press.current = {
      x,
      y,
      timer: setTimeout(() => {
        press.current = null;
        swallowClick.current = true;
        returnFocus.current = document.activeElement as HTMLElement | null;
        setPoint({ x, y });
        void setOpen(true);
      }, GESTURE_PRESS_MS),
    };
  };
  const onPointerMove = (event: ReactPointerEvent<HTMLDivElement>) => {
    const start = press.current;
    if (start && Math.hypot(event.clientX - start.x, event.clientY - start.y) > TOUCH_TAP_TOLERANCE_PX) cancelPress();
  };
  const onClickCapture = (event: MouseEvent<HTMLDivElement>) => {
    if (!swallowClick.current) return;
    swallowClick.current = false;
    event.preventDefault();
    event.stopPropagation();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey)) {
      event.preventDefault();
      returnFocus.current = document.activeElement as HTMLElement | null;
      setPoint(null);
      void setOpen(true);
    }
  };

  const list = (
    <MenuList
      ref={menu}
      items={items}
      ariaLabel={label ?? t`Actions`}
      className={narrow ? 'ui-sheet__menu' : 'ui-popup-menu'}
      style={narrow ? undefined : floatingStyle(position)}
      onClose={(reason) => close(reason === 'select')}
    />
  );

  return (
    <>
      <div
        ref={area}
        className={['ui-context-area', className].filter(Boolean).join(' ')}
        onContextMenu={onContextMenu}
        onKeyDown={onKeyDown}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={cancelPress}
        onPointerCancel={cancelPress}
        onClickCapture={onClickCapture}
      >
        {children}
      </div>
      {open
        ? createPortal(
            narrow ? (
              <div className="ui-sheet-backdrop">
                <div className="ui-sheet">
                  {title ? <div className="ui-sheet__title">{title}</div> : null}
                  {list}
                </div>
              </div>
            ) : (
              list
            ),
            document.body,
          )
        : null}
    </>
  );
}
