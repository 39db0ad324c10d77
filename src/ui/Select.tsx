import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useLingui } from '@lingui/react/macro';
import { filterOptions } from './dropdown-search';
import { CheckIcon, ChevronDownIcon, SearchIcon } from './icons';
import { isMenuKey, nextMenuIndex, typeaheadIndex } from './menu-navigation';
import { floatingStyle, useFloating } from './use-floating';
import { useLayer } from './use-layer';

export interface SelectOption<V> {
  value: V;
  label: string;
  /** Other words that find this option in the search (e.g. "colour" for "Color"). */
  synonyms?: readonly string[];
  icon?: ReactNode;
  disabled?: boolean;
}

export interface SelectProps<V> {
  options: readonly SelectOption<V>[];
  value: V | null | undefined;
  onChange: (value: V) => void;
  /** Accessible name when there is no visible <label htmlFor={id}>. */
  ariaLabel?: string;
  id?: string;
  placeholder?: string;
  /** Show a search box; by default when there are more than 7 options. */
  searchable?: boolean;
  disabled?: boolean;
  className?: string;
}

/** Searchable dropdown (shell.md §5): prefix on words or the whole label, plus synonyms. */
export function Select<V>({ options, value, onChange, ariaLabel, id, placeholder, searchable, disabled, className }: SelectProps<V>) {
  const { t } = useLingui();
  const autoId = useId();
  const triggerId = id ?? autoId;
  const listId = `${triggerId}-list`;
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(-1);
  const trigger = useRef<HTMLButtonElement>(null);
  const popup = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const search = useRef<HTMLInputElement>(null);
  const withSearch = searchable ?? options.length > 7;
  const selected = options.find((option) => Object.is(option.value, value));
  const shown = useMemo(() => filterOptions(options, query), [options, query]);
  const disabledFlags = shown.map((option) => !!option.disabled);
  const position = useFloating(open, trigger, popup, { side: 'bottom', align: 'start' });

  const close = (refocus: boolean) => {
    setOpen(false);
    setQuery('');
    if (refocus) trigger.current?.focus();
  };
  useLayer({ open, inside: [popup, trigger], onDismiss: (reason) => close(reason === 'escape') });

  const openList = () => {
    if (disabled) return;
    setOpen(true);
  };
  // On open: highlight the current value (or the first option) and move focus into the popup.
  useEffect(() => {
    if (!open) return;
    const at = shown.findIndex((option) => Object.is(option.value, value));
    setActive(at >= 0 ? at : nextMenuIndex(-1, 'Home', disabledFlags));
    (withSearch ? search.current : list.current)?.focus();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);
  // Typing narrows the list: highlight the best match.
  useEffect(() => {
    if (open && query) setActive(nextMenuIndex(-1, 'Home', disabledFlags));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query]);
  useEffect(() => {
    if (active >= 0) document.getElementById(`${listId}-${active}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [active, listId]);

  const choose = (index: number) => {
    const option = shown[index];
    if (!option || option.disabled) return;
    onChange(option.value);
    close(true);
  };

  const onListKey = (event: KeyboardEvent<HTMLElement>) => {
    const inSearch = event.currentTarget === search.current;
    if (isMenuKey(event.key) && !(inSearch && (event.key === 'Home' || event.key === 'End'))) {
      event.preventDefault();
      setActive(nextMenuIndex(active, event.key, disabledFlags));
    } else if (event.key === 'Enter' || (!inSearch && event.key === ' ')) {
      event.preventDefault();
      choose(active);
    } else if (event.key === 'Tab') {
      close(false);
    } else if (!inSearch && event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
      setActive(typeaheadIndex(active, event.key, shown.map((option) => option.label), disabledFlags));
    }
  };

  const activeId = active >= 0 && active < shown.length ? `${listId}-${active}` : undefined;

  return (
    <>
      <button
        ref={trigger}
        id={triggerId}
        type="button"
        role="combobox"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-label={ariaLabel}
        disabled={disabled}
        className={['ui-select', className].filter(Boolean).join(' ')}
        onClick={() => (open ? close(false) : openList())}
        onKeyDown={(event) => {
          if (!open && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
            event.preventDefault();
            openList();
          }
        }}
      >
        <span className={selected ? 'ui-select__value' : 'ui-select__placeholder'}>
          {selected?.icon}
          {selected ? selected.label : (placeholder ?? t`Select…`)}
        </span>
        <ChevronDownIcon size={16} />
      </button>
      {open
        ? createPortal(
            <div
              ref={popup}
              className="ui-select-popup"
              style={{
                minInlineSize: trigger.current?.offsetWidth,
                ...floatingStyle(position),
              }}
            >
              {withSearch ? (
                <div className="ui-select-popup__search">
                  <SearchIcon size={16} />
                  <input
                    ref={search}
                    type="search"
                    role="combobox"
                    aria-expanded="true"
                    aria-controls={listId}
                    aria-autocomplete="list"
                    aria-activedescendant={activeId}
                    aria-label={t`Search`}
                    placeholder={t`Search`}
                    value={query}
                    onChange={(event) => setQuery(event.target.value)}
                    onKeyDown={onListKey}
                  />
                </div>
              ) : null}
              <ul
                ref={list}
                id={listId}
                role="listbox"
                aria-labelledby={triggerId}
                aria-activedescendant={withSearch ? undefined : activeId}
                tabIndex={withSearch ? -1 : 0}
                className="ui-select-popup__list"
                onKeyDown={withSearch ? undefined : onListKey}
              >
                {shown.map((option, index) => {
                  const isSelected = Object.is(option.value, value);
                  return (
                    <li
                      key={String(option.value)}
                      id={`${listId}-${index}`}
                      role="option"
                      aria-selected={isSelected}
                      aria-disabled={option.disabled || undefined}
                      className={['ui-select-option', index === active && 'is-active', option.disabled && 'is-disabled'].filter(Boolean).join(' ')}
                      onMouseMove={() => !option.disabled && index !== active && setActive(index)}
                      onMouseDown={(event) => event.preventDefault()}
                      onClick={() => choose(index)}
                    >
                      {option.icon}
                      <span className="ui-select-option__label">{option.label}</span>
                      {isSelected ? <CheckIcon size={16} className="ui-select-option__check" /> : null}
                    </li>
                  );
                })}
                {shown.length === 0 ? (
                  <li className="ui-select-popup__empty" role="presentation">
                    {t`No matches`}
                  </li>
                ) : null}
              </ul>
            </div>,
            document.body,
          )
        : null}
    </>
  );
}
