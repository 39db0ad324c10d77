import { describe, expect, it } from 'vitest';
import { shouldAskOnLoad } from '../../src/notifications/push-on-load-rule';

/** S4.26: on profile load the installed app asks for push permission while it is still "prompt", never for guests. */
describe('push permission on profile load', () => {
  it('asks only a signed-in user of the installed app whose browser has not answered yet', () => {
    expect(shouldAskOnLoad({ standalone: true, permission: 'default', guest: false })).toBe(true);
    expect(shouldAskOnLoad({ standalone: true, permission: 'denied', guest: false })).toBe(false);
    expect(shouldAskOnLoad({ standalone: true, permission: 'granted', guest: false })).toBe(false);
    expect(shouldAskOnLoad({ standalone: false, permission: 'default', guest: false })).toBe(false);
    expect(shouldAskOnLoad({ standalone: true, permission: 'default', guest: true })).toBe(false);
    expect(shouldAskOnLoad({ standalone: true, permission: null, guest: false })).toBe(false);
  });
});
