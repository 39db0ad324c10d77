import { describe, expect, it, vi } from 'vitest';

// The toast itself is a React/Lingui module; this test is about what the Syncing event also does.
const toasts = vi.hoisted(() => ({ syncing: 0 }));
vi.mock('../../src/connectivity/messages', () => ({ toastSyncing: () => void toasts.syncing++ }));

import { followEngine } from '../../src/connectivity/engine-bridge';
import { onNotificationsInvalidated } from '../../src/notifications/invalidation';

/** S4.5: the engine's "Syncing" moment shows its toast and invalidates notifications (the feed re-asks the count, an open panel reloads). */
describe('the Syncing moment', () => {
  it('invalidates notifications, and other engine events do not', () => {
    let emit: (event: string, payload: unknown) => void = () => undefined;
    const stop = followEngine((listener) => {
      emit = listener;
      return () => undefined;
    });
    let invalidated = 0;
    const off = onNotificationsInvalidated(() => invalidated++);
    emit('connection', { status: 'connected' });
    expect(invalidated).toBe(0);
    emit('syncing', null);
    expect([invalidated, toasts.syncing]).toEqual([1, 1]);
    off();
    emit('syncing', null);
    expect(invalidated).toBe(1);
    stop();
  });
});
