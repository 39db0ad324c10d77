import { describe, expect, it } from 'vitest';
import { openingFor } from '../../src/notifications/opening';

const origin = 'https://app.cairn.example';
const workspaces = [
  { id: 1, whitelabel_settings: { link: 'https://work.acme.example/' } },
  { id: 2, whitelabel_settings: null },
  { id: 3, domain: 'app.cairn.example' },
];

describe('opening a notification’s target', () => {
  it('uses the workspace’s white-label link as a prefix, in a new window', () => {
    expect(openingFor('/b/B1/B1/I1?t=comments&comment=C1', 1, workspaces, origin)).toEqual({ kind: 'external', url: 'https://work.acme.example/b/B1/B1/I1?t=comments&comment=C1' });
  });

  it('stays in the app without a link, on the link’s own origin, or without a workspace', () => {
    expect(openingFor('/b/B1', 2, workspaces, origin)).toEqual({ kind: 'app', href: '/b/B1' });
    expect(openingFor('/b/B1', 3, workspaces, origin)).toEqual({ kind: 'app', href: '/b/B1' });
    expect(openingFor('/profile/billing', null, workspaces, origin)).toEqual({ kind: 'app', href: '/profile/billing' });
    expect(openingFor('/b/B1', 1, null, origin)).toEqual({ kind: 'app', href: '/b/B1' });
  });

  it('opens external links outside the app, and never a script address', () => {
    expect(openingFor('https://hooks.example.org/x', 2, workspaces, origin)).toEqual({ kind: 'external', url: 'https://hooks.example.org/x' });
    expect(openingFor(`${origin}/b/B1?view=V`, 2, workspaces, origin)).toEqual({ kind: 'app', href: '/b/B1?view=V' });
    expect(openingFor('javascript:alert(1)', 2, workspaces, origin)).toEqual({ kind: 'app', href: '/' });
  });
});
