/**
 * Keyboard movement in menus and listboxes: arrows wrap, Home/End jump, disabled entries are
 * skipped. Pure so menus, the dropdown and tests share one rule.
 */
export type MenuKey = 'ArrowDown' | 'ArrowUp' | 'Home' | 'End';

export function isMenuKey(key: string): key is MenuKey {
  return key === 'ArrowDown' || key === 'ArrowUp' || key === 'Home' || key === 'End';
}

/**
 * The index to focus after `key`, from `current` (-1 = nothing focused yet).
 * Returns -1 when no entry is enabled.
 */
export function nextMenuIndex(current: number, key: MenuKey, disabled: readonly boolean[]): number {
  const count = disabled.length;
  if (count === 0 || disabled.every(Boolean)) return -1;
  const firstFrom = (start: number, step: 1 | -1) => {
    for (let i = 0, at = start; i < count; i++, at = (at + step + count) % count) {
      if (!disabled[at]) return at;
    }
    return -1;
  };
  switch (key) {
    case 'Home':
      return firstFrom(0, 1);
    case 'End':
      return firstFrom(count - 1, -1);
    case 'ArrowDown':
      return firstFrom(current < 0 ? 0 : (current + 1) % count, 1);
    case 'ArrowUp':
      return firstFrom(current < 0 ? count - 1 : (current - 1 + count) % count, -1);
  }
}

/** Type-ahead: the next enabled entry after `current` whose label starts with `char`. */
export function typeaheadIndex(current: number, char: string, labels: readonly string[], disabled: readonly boolean[]): number {
  const needle = char.toLocaleLowerCase();
  const count = labels.length;
  for (let i = 1; i <= count; i++) {
    const at = (current + i + count) % count;
    if (!disabled[at] && labels[at].trim().toLocaleLowerCase().startsWith(needle)) return at;
  }
  return current;
}
