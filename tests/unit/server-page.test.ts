import { describe, expect, it } from 'vitest';
import { loadedHere } from '../../src/screens/server-page/loaded-here';

/**
 * The app's screen for routes the server answers itself (decision 0210): it reloads the address
 * from the server unless this very document was loaded there (the service worker's offline copy of
 * the app), which would reload in a loop.
 */
describe('ServerPage: load from the server, never in a loop', () => {
  it('reloads when the app moved to the address from another page', () => {
    expect(loadedHere('https://cairn.test/p/e3-v1', 'https://cairn.test/home')).toBe(false);
    expect(loadedHere('https://cairn.test/form/f1', 'https://cairn.test/b/x?view=f1')).toBe(false);
  });
  it('does not reload a document that was itself loaded at the address (offline copy)', () => {
    expect(loadedHere('https://cairn.test/p/e3-v1', 'https://cairn.test/p/e3-v1')).toBe(true);
    expect(loadedHere('https://cairn.test/form/f1#top', 'https://cairn.test/form/f1')).toBe(true);
  });
  it('reloads when the browser gives no navigation entry', () => {
    expect(loadedHere('https://cairn.test/p/e3-v1', undefined)).toBe(false);
  });
});
