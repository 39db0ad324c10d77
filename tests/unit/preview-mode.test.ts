import { describe, expect, it } from 'vitest';
import { createPreviewMode, previewExitHref, sendsInPreview } from '../../src/navigation/preview';

/** The shell's side of preview (pretend) mode, decision 0280 (the engine's side: tests/engine/preview-engine.test.ts). */
describe('preview mode in the shell', () => {
  it('lets GET out, and of the writes only signing in and out and unlocking a public board', () => {
    expect(sendsInPreview('GET', '/api/me/workspaces')).toBe(true);
    expect(sendsInPreview('get', '/api/1/items?board_id=b')).toBe(true);
    expect(sendsInPreview('POST', '/api/auth/login')).toBe(true);
    expect(sendsInPreview('POST', '/api/auth/logout')).toBe(true);
    expect(sendsInPreview('POST', '/api/boards/abc123/unlock')).toBe(true);
    for (const [method, path] of [
      ['POST', '/api/auth/register'],
      ['PUT', '/api/me'],
      ['POST', '/api/teams'],
      ['PUT', '/api/1/items/x'],
      ['POST', '/api/1/batch'],
      ['DELETE', '/api/teams/1/members/2'],
      ['PUT', '/api/notifications/read'],
      ['POST', '/api/boards/abc/unlock/extra'],
      ['POST', '/api/auth/login/../../teams'],
    ] as const) {
      expect(sendsInPreview(method, path), `${method} ${path}`).toBe(false);
    }
  });

  it('leaves by the same address without pretend, keeping the other query keys and the hash', () => {
    expect(previewExitHref({ pathname: '/b/abc', search: '?pretend', hash: '' })).toBe('/b/abc');
    expect(previewExitHref({ pathname: '/b/abc', search: '?pretend&hide_header&view=v1', hash: '#x' })).toBe('/b/abc?hide_header&view=v1#x');
    expect(previewExitHref({ pathname: '/b/abc/f/i', search: '?team=4&pretend=1', hash: '' })).toBe('/b/abc/f/i?team=4');
  });

  it('a bare ?pretend (an empty value) switches it on, ?pretend=false does not', () => {
    const bare = createPreviewMode();
    expect(bare.observe(Object.fromEntries(new URLSearchParams('?pretend')))).toBe(true);
    const off = createPreviewMode();
    expect(off.observe(Object.fromEntries(new URLSearchParams('?pretend=false')))).toBe(false);
    expect(off.on).toBe(false);
  });
});
