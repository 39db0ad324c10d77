import { cloneElement, isValidElement, useEffect, useId, useRef, type ReactElement, type ReactNode, type Ref } from 'react';
import { createPortal } from 'react-dom';
import { CUSTOM_TOOLTIP_HIDE_MS, CUSTOM_TOOLTIP_SHOW_MS, TOOLTIP_DISPOSE_MS, TOOLTIP_DISTANCE, TOOLTIP_SHOW_DELAY_MS } from '../../schema/constants';
import { onRouteChange } from './navigation-events';
import type { Side } from './position';
import { floatingStyle, useFloating } from './use-floating';
import { useHoverIntent } from './use-hover-intent';

export interface TooltipProps {
  content: ReactNode;
  /** One element that accepts a ref and mouse/focus handlers (a button, link, span). */
  children: ReactElement<Record<string, unknown>>;
  side?: Side;
  /** Shows only this long after the pointer rests (shell.md §9: 200 ms; the custom theme: 0). */
  delay?: number;
  /** `custom`: the spec's custom-tooltip theme, shown at once and hidden 200 ms after leaving. */
  theme?: TooltipTheme;
}

export type TooltipTheme = 'default' | 'custom';

/** Show and hide delays of a theme (shell.md §9: 200/150 ms; custom 0/200 ms). */
export function tooltipTiming(theme: TooltipTheme = 'default'): { show: number; hide: number } {
  return theme === 'custom' ? { show: CUSTOM_TOOLTIP_SHOW_MS, hide: CUSTOM_TOOLTIP_HIDE_MS } : { show: TOOLTIP_SHOW_DELAY_MS, hide: TOOLTIP_DISPOSE_MS };
}

/**
 * Short text shown above (or below) an element on hover and keyboard focus, after 200 ms, 5 px
 * away. Linked with aria-describedby; Escape or a route change hides it.
 */
export function Tooltip({ content, children, side = 'top', delay, theme = 'default' }: TooltipProps) {
  const id = useId();
  const anchor = useRef<HTMLElement | null>(null);
  const floating = useRef<HTMLDivElement>(null);
  const timing = tooltipTiming(theme);
  const { open, enter, leave, close } = useHoverIntent(delay ?? timing.show, timing.hide);
  const position = useFloating(open, anchor, floating, { side, align: 'center' }, { distance: TOOLTIP_DISTANCE });

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && close();
    document.addEventListener('keydown', onKey);
    const offRoute = onRouteChange(close);
    return () => {
      document.removeEventListener('keydown', onKey);
      offRoute();
    };
  }, [open, close]);

  if (!isValidElement(children)) return children;
  const childProps = children.props as Record<string, ((event: unknown) => void) | undefined>;
  const chain = (name: string, ours: () => void) => (event: unknown) => {
    childProps[name]?.(event);
    ours();
  };
  const trigger = cloneElement(children, {
    ref: (node: HTMLElement | null) => {
      anchor.current = node;
      const childRef = (children as unknown as { props: { ref?: Ref<HTMLElement> } }).props.ref;
      if (typeof childRef === 'function') childRef(node);
      else if (childRef && typeof childRef === 'object') (childRef as { current: HTMLElement | null }).current = node;
    },
    'aria-describedby': open ? id : (children.props['aria-describedby'] as string | undefined),
    onMouseEnter: chain('onMouseEnter', enter),
    onMouseLeave: chain('onMouseLeave', leave),
    onFocus: chain('onFocus', enter),
    onBlur: chain('onBlur', close),
    onPointerDown: chain('onPointerDown', close),
  });

  return (
    <>
      {trigger}
      {open && content
        ? createPortal(
            <div
              ref={floating}
              id={id}
              role="tooltip"
              className={`ui-tooltip ui-tooltip--${position?.side ?? side}`}
              style={floatingStyle(position)}
            >
              {content}
            </div>,
            document.body,
          )
        : null}
    </>
  );
}
