import { forwardRef, useEffect, useRef, useState, type CSSProperties, type KeyboardEvent, type ReactNode } from 'react';
import { isMenuKey, nextMenuIndex, typeaheadIndex } from './menu-navigation';

export interface MenuItem {
  /** Stable key; defaults to the label. */
  id?: string;
  label: string;
  icon?: ReactNode;
  onSelect: () => void;
  disabled?: boolean;
  /** Why it is disabled (e.g. "This feature is not available when offline"); shown as a hint. */
  disabledReason?: string;
  /** Destructive action (red). */
  danger?: boolean;
  /** Draws a divider above this entry. */
  separatorBefore?: boolean;
  /** A short tag after the label (e.g. "Pro" on a view kind the plan gates); part of the item's name. */
  badge?: string;
}

export interface MenuListProps {
  items: readonly MenuItem[];
  /**
   * Called when an item was chosen (before its action) or with 'tab' when focus leaves by Tab.
   * If it returns a promise, the item's action waits for it (a URL-kept menu first leaves history).
   */
  onClose: (reason: 'select' | 'tab') => void | Promise<void>;
  id?: string;
  labelledBy?: string;
  ariaLabel?: string;
  className?: string;
  style?: CSSProperties;
}

/**
 * role=menu with roving focus: arrows (wrapping), Home/End, type-ahead, Enter/Space choose,
 * Tab leaves. The first enabled entry takes focus when the menu mounts.
 */
export const MenuList = forwardRef<HTMLDivElement, MenuListProps>(function MenuList(
  { items, onClose, id, labelledBy, ariaLabel, className, style },
  ref,
) {
  const disabled = items.map((item) => !!item.disabled);
  const [active, setActive] = useState(() => nextMenuIndex(-1, 'Home', disabled));
  const buttons = useRef<Array<HTMLButtonElement | null>>([]);

  useEffect(() => {
    if (active >= 0) buttons.current[active]?.focus({ preventScroll: false });
  }, [active]);

  const choose = (index: number) => {
    const item = items[index];
    if (!item || item.disabled) return;
    const closed = onClose('select');
    if (closed && typeof closed.then === 'function') void closed.then(() => item.onSelect());
    else item.onSelect();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (isMenuKey(event.key)) {
      event.preventDefault();
      setActive(nextMenuIndex(active, event.key, disabled));
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      choose(active);
    } else if (event.key === 'Tab') {
      onClose('tab');
    } else if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
      setActive(typeaheadIndex(active, event.key, items.map((item) => item.label), disabled));
    }
  };

  return (
    <div
      ref={ref}
      id={id}
      role="menu"
      aria-labelledby={labelledBy}
      aria-label={labelledBy ? undefined : ariaLabel}
      className={['ui-menu', className].filter(Boolean).join(' ')}
      style={style}
      onKeyDown={onKeyDown}
    >
      {items.map((item, index) => (
        <div key={item.id ?? item.label} role="none">
          {item.separatorBefore && index > 0 ? <div role="separator" className="ui-menu__separator" /> : null}
          <button
            ref={(node) => {
              buttons.current[index] = node;
            }}
            type="button"
            role="menuitem"
            tabIndex={index === active ? 0 : -1}
            aria-disabled={item.disabled || undefined}
            title={item.disabled ? item.disabledReason : undefined}
            className={['ui-menu__item', item.danger && 'is-danger', item.disabled && 'is-disabled'].filter(Boolean).join(' ')}
            onClick={() => choose(index)}
            onMouseMove={() => !item.disabled && index !== active && setActive(index)}
          >
            {item.icon ? <span className="ui-menu__icon" aria-hidden="true">{item.icon}</span> : null}
            <span className="ui-menu__label">{item.label}</span>
            {item.badge ? <span className="ui-menu__badge">{item.badge}</span> : null}
            {item.disabled && item.disabledReason ? <span className="ui-menu__hint">{item.disabledReason}</span> : null}
          </button>
        </div>
      ))}
    </div>
  );
});
