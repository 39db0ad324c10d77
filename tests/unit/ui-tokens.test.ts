import { describe, expect, it } from 'vitest';
import { applyCustomColors, customColorProperties, isSafeColor, readCustomColors, resolveTheme } from '../../src/ui/tokens';

/** Just the style API applyCustomColors uses. */
function fakeRoot() {
  const props = new Map<string, string>();
  return {
    props,
    style: {
      setProperty: (name: string, value: string) => props.set(name, value),
      removeProperty: (name: string) => props.delete(name),
    },
  } as unknown as HTMLElement & { props: Map<string, string> };
}

describe('theme tokens', () => {
  it('resolves the theme from the setting and the OS preference', () => {
    expect(resolveTheme('dark', false)).toBe('dark');
    expect(resolveTheme(1, false)).toBe('dark');
    expect(resolveTheme(0, true)).toBe('light');
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme(2, false)).toBe('light');
    expect(resolveTheme(undefined, true)).toBe('dark');
  });

  it('reads app.customization.colors.* from flat and nested settings', () => {
    expect(readCustomColors({ 'app.customization.colors.primary': '#ff0066', 'app.other': 'x' })).toEqual({ primary: '#ff0066' });
    expect(readCustomColors({ app: { customization: { colors: { primary: 'rgb(1 2 3)', sidebar: 'navy' } } } })).toEqual({
      primary: 'rgb(1 2 3)',
      sidebar: 'navy',
    });
    expect(customColorProperties({ 'app.customization.colors.textMuted': '#777' })).toEqual({ '--color-text-muted': '#777' });
  });

  it('ignores unknown names and anything that is not a plain colour', () => {
    expect(
      readCustomColors({
        'app.customization.colors.nope': '#fff',
        'app.customization.colors.primary': 'red; background: url(x)',
        'app.customization.colors.danger': 'var(--x)',
        'app.customization.colors.text': 42,
      }),
    ).toEqual({});
    expect(readCustomColors(null)).toEqual({});
    expect(isSafeColor('oklch(70% 0.1 200)')).toBe(true);
    expect(isSafeColor('url(https://evil)')).toBe(false);
    expect(isSafeColor('inherit')).toBe(false);
  });

  it('applies overrides on the root and replaces the previous ones', () => {
    const root = fakeRoot();
    applyCustomColors({ 'app.customization.colors.primary': '#123456', 'app.customization.colors.danger': '#aa0000' }, root);
    expect(Object.fromEntries(root.props)).toEqual({ '--color-primary': '#123456', '--color-danger': '#aa0000' });
    applyCustomColors({ 'app.customization.colors.primary': '#654321' }, root);
    expect(Object.fromEntries(root.props)).toEqual({ '--color-primary': '#654321' });
    applyCustomColors(null, root);
    expect(root.props.size).toBe(0);
  });
});
