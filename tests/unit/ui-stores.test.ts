import { describe, expect, it } from 'vitest';
import { avatarColorIndex, initialsOf } from '../../src/ui/avatar-identity';
import { createConfirmStore } from '../../src/ui/confirm-store';
import { createLayerStack } from '../../src/ui/layer-stack';
import { announceNavigation, NAVIGATE_EVENT, onRouteChange } from '../../src/ui/navigation-events';

describe('avatar identity', () => {
  it('takes the initials of the first and last word', () => {
    expect(initialsOf('Ada Lovelace')).toBe('AL');
    expect(initialsOf('ada king lovelace')).toBe('AL');
    expect(initialsOf('grace')).toBe('G');
    expect(initialsOf('grace.hopper@example.com')).toBe('GC');
    expect(initialsOf('  ')).toBe('?');
    expect(initialsOf(null)).toBe('?');
    expect(initialsOf('Émile Zola')).toBe('ÉZ');
    expect(initialsOf('李 小龙')).toBe('李小');
  });

  it('gives the same colour for the same name, spread over the palette', () => {
    expect(avatarColorIndex('Ada Lovelace')).toBe(avatarColorIndex(' ada lovelace '));
    const names = Array.from({ length: 200 }, (_, i) => `Person ${i}`);
    const used = new Set(names.map((name) => avatarColorIndex(name)));
    expect(used.size).toBe(8);
    for (const index of used) expect(index).toBeGreaterThanOrEqual(0);
  });
});

describe('confirm store', () => {
  it('resolves each request with its answer, one at a time in order', async () => {
    const store = createConfirmStore();
    const first = store.confirm();
    const second = store.confirm({ message: 'Delete the board?', danger: true });
    expect(store.current()?.message).toBeUndefined();
    expect(store.current()?.id).toBeDefined();
    store.answer(store.current()!.id, true);
    expect(store.current()).toMatchObject({ message: 'Delete the board?', danger: true });
    store.answer(store.current()!.id, false);
    expect(store.current()).toBeNull();
    await expect(first).resolves.toBe(true);
    await expect(second).resolves.toBe(false);
  });

  it('ignores a second answer to the same request', async () => {
    const store = createConfirmStore();
    const asked = store.confirm();
    const next = store.confirm();
    const id = store.current()!.id;
    store.answer(id, false);
    store.answer(id, true);
    expect(store.current()).not.toBeNull();
    await expect(asked).resolves.toBe(false);
    store.answer(store.current()!.id, true);
    await expect(next).resolves.toBe(true);
  });
});

describe('layer stack', () => {
  it('only the most recently opened layer is on top', () => {
    const stack = createLayerStack();
    stack.push('modal');
    stack.push('menu');
    expect(stack.isTop('menu')).toBe(true);
    expect(stack.isTop('modal')).toBe(false);
    stack.remove('menu');
    expect(stack.isTop('modal')).toBe(true);
    stack.remove('modal');
    expect(stack.size()).toBe(0);
    expect(stack.isTop('modal')).toBe(false);
  });
});

describe('route change signal', () => {
  it('fires on popstate and on the router event until unsubscribed', () => {
    const target = new EventTarget();
    let calls = 0;
    const off = onRouteChange(() => calls++, target);
    target.dispatchEvent(new Event('popstate'));
    announceNavigation(target);
    expect(calls).toBe(2);
    off();
    target.dispatchEvent(new Event(NAVIGATE_EVENT));
    expect(calls).toBe(2);
  });
});
