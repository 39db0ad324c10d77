import { describe, expect, it } from 'vitest';
import { isMenuKey, nextMenuIndex, typeaheadIndex } from '../../src/ui/menu-navigation';

describe('menu keyboard navigation', () => {
  const none = [false, false, false, false];

  it('arrows move and wrap around', () => {
    expect(nextMenuIndex(0, 'ArrowDown', none)).toBe(1);
    expect(nextMenuIndex(3, 'ArrowDown', none)).toBe(0);
    expect(nextMenuIndex(0, 'ArrowUp', none)).toBe(3);
    expect(nextMenuIndex(-1, 'ArrowDown', none)).toBe(0);
    expect(nextMenuIndex(-1, 'ArrowUp', none)).toBe(3);
  });

  it('Home and End jump to the first and last enabled entry', () => {
    const disabled = [true, false, false, true];
    expect(nextMenuIndex(2, 'Home', disabled)).toBe(1);
    expect(nextMenuIndex(1, 'End', disabled)).toBe(2);
  });

  it('skips disabled entries', () => {
    const disabled = [false, true, true, false];
    expect(nextMenuIndex(0, 'ArrowDown', disabled)).toBe(3);
    expect(nextMenuIndex(3, 'ArrowDown', disabled)).toBe(0);
    expect(nextMenuIndex(0, 'ArrowUp', disabled)).toBe(3);
  });

  it('returns -1 when nothing can take focus', () => {
    expect(nextMenuIndex(0, 'ArrowDown', [])).toBe(-1);
    expect(nextMenuIndex(0, 'Home', [true, true])).toBe(-1);
  });

  it('type-ahead finds the next entry starting with the letter', () => {
    const labels = ['Rename', 'Duplicate', 'Delete', 'Archive'];
    expect(typeaheadIndex(0, 'd', labels, none)).toBe(1);
    expect(typeaheadIndex(1, 'D', labels, none)).toBe(2);
    expect(typeaheadIndex(2, 'd', labels, none)).toBe(1);
    expect(typeaheadIndex(0, 'z', labels, none)).toBe(0);
    expect(typeaheadIndex(0, 'd', labels, [false, true, false, false])).toBe(2);
  });

  it('knows which keys it handles', () => {
    expect(isMenuKey('Home')).toBe(true);
    expect(isMenuKey('Enter')).toBe(false);
  });
});
