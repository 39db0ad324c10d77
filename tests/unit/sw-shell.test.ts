import { describe, expect, it } from 'vitest';
import { INDEX_HTML, precacheList, shellCacheName, staleShellCaches } from '../../src/sw/precache';
import { strategyFor, type RequestFacts } from '../../src/sw/routing';
import { buildIdOf } from '../../scripts/sw-build-plugin';

const ORIGIN = 'https://cairn.test';
const get = (path: string, extra: Partial<RequestFacts> = {}): RequestFacts => ({ method: 'GET', url: ORIGIN + path, mode: 'cors', cache: 'default', ...extra });

describe('precache list', () => {
  const bundle = ['index.html', 'assets/index-Ab12.js', 'assets/index-Ab12.js.map', 'assets/index-Zz.css', 'assets/de-9f.js', 'assets/shared-worker-K1.js', 'sw.js', 'assets/.DS_Store'];

  it('lists every built file but source maps, dotfiles and the worker itself, with index.html', () => {
    expect(precacheList(bundle)).toEqual(['/assets/de-9f.js', '/assets/index-Ab12.js', '/assets/index-Zz.css', '/assets/shared-worker-K1.js', '/index.html']);
  });

  it('always holds index.html (the document every offline navigation gets)', () => {
    expect(precacheList(['assets/a.js'])).toContain(INDEX_HTML);
  });

  it('gives a new build id when a file or index.html changes, the same one otherwise', () => {
    const files = precacheList(bundle);
    const id = buildIdOf(files, '<html>1</html>');
    expect(buildIdOf(files, '<html>1</html>')).toBe(id);
    expect(buildIdOf(files, '<html>2</html>')).not.toBe(id);
    expect(buildIdOf(precacheList([...bundle, 'assets/fr-1.js']), '<html>1</html>')).not.toBe(id);
  });

  it('deletes the shell caches of other builds only', () => {
    expect(staleShellCaches([shellCacheName('old'), shellCacheName('new'), 'runtime-api-v1', 'other'], 'new')).toEqual([shellCacheName('old')]);
  });
});

describe('route → cache decision', () => {
  const precached = new Set(['/assets/index-Ab12.js', '/index.html']);
  const decide = (facts: RequestFacts) => strategyFor(facts, ORIGIN, precached);

  it('navigations to app routes get the shell document (network first, cached index.html offline)', () => {
    expect(decide(get('/home', { mode: 'navigate' }))).toBe('shell-document');
    expect(decide(get('/b/V1StGXR8_Z5jdHi6B-myT', { mode: 'navigate' }))).toBe('shell-document');
    expect(decide(get('/no/such/page', { mode: 'navigate' }))).toBe('shell-document');
  });

  it('hashed files of this build come from the cache', () => {
    expect(decide(get('/assets/index-Ab12.js'))).toBe('precached');
    expect(decide(get('/assets/index-Ab12.js?v=1'))).toBe('precached');
    expect(decide(get('/assets/other-build-Q9.js'))).toBe('network');
  });

  it('keeps /api, the realtime socket and writes out of the app-shell cache', () => {
    expect(decide(get('/api/1/items?board_id=x'))).toBe('network');
    expect(decide(get('/api/me', { mode: 'navigate' }))).toBe('network');
    expect(decide(get('/app/cairn-key?protocol=7'))).toBe('network');
    expect(decide(get('/api/auth/refresh', { method: 'POST' }))).toBe('network');
    expect(decide(get('/home', { method: 'POST', mode: 'navigate' }))).toBe('network');
  });

  it('never answers app-vars from a cache (an answer means the server is reachable)', () => {
    expect(decide(get('/api/app-vars'))).toBe('network');
  });

  it('keeps uploaded images in runtime-api-v1, unless the caller asks for no-store', () => {
    expect(decide(get('/api/files/avatars/AbC_12-x.png'))).toBe('runtime-file');
    expect(decide(get('/api/files/avatars/AbC_12-x.png', { cache: 'no-store' }))).toBe('network');
    expect(decide(get('/api/files/avatars/../x.png'))).toBe('network');
  });

  it('leaves other origins and the worker script alone', () => {
    expect(decide({ ...get('/x.js'), url: 'https://fonts.example/x.js' })).toBe('network');
    expect(decide(get('/sw.js', { mode: 'navigate' }))).toBe('network');
  });
});
