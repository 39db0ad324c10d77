import { describe, expect, it } from 'vitest';
import { defaultEntries, PERMISSION_NAMES, type RoleOrGuest } from '../../schema/permissions';
import { chainTo as schemaChainTo } from '../../schema/permission-chain';
import { allowed, chainTo as serverChainTo } from '../../server/sync/access';
import { boardAccess, type AccessFolder } from '../../src/boards/model/access';

/**
 * Issue #10 part 4: the permission chain lives once, in schema/permission-chain.ts. The app's
 * `boardAccess` and the server's `allowed(chainTo(…))` must answer every question the same way.
 */
const workspace = { id: 7, owner_id: 1, permissions: defaultEntries() };
const folders: AccessFolder[] = [
  { id: 'open', parent_id: null, name: 'Open board', created_by: 2 },
  { id: 'open-sub', parent_id: 'open', name: 'Sub', created_by: 3 },
  { id: 'hidden', parent_id: null, name: 'Hidden board', hidden: true, user_ids: [2], created_by: 2 },
  { id: 'hidden-sub', parent_id: 'hidden', name: 'In hidden', created_by: 2 },
  { id: 'members', parent_id: 'open', name: 'Members only folder', hidden: true, user_ids: [3], created_by: 3 },
  { id: 'public', parent_id: null, name: 'Public board', is_public: true, created_by: 1 },
  { id: 'orphan', parent_id: 'missing', name: 'Broken reference' },
];
const viewers: { id: number | null; role: RoleOrGuest }[] = [
  { id: 1, role: 'owner' },
  { id: 2, role: 'admin' },
  { id: 3, role: 'full-member' },
  { id: 4, role: 'restricted-member' },
  { id: 5, role: 'guest' },
  { id: null, role: 'guest' },
];

describe('one permission chain for app and server', () => {
  it('gives the same answer on both sides for every viewer, folder and permission', () => {
    const byId = new Map(folders.map((f) => [f.id, f]));
    let asked = 0;
    for (const viewer of viewers) {
      const app = boardAccess(workspace, viewer, folders);
      for (const folder of folders) {
        const chain = serverChainTo(workspace as never, byId as never, folder.id);
        for (const permission of PERMISSION_NAMES) {
          for (const createdBy of [undefined, viewer.id, 99]) {
            const server = chain ? allowed(viewer, permission, chain, createdBy) : false;
            expect(app.can(permission, folder.id, createdBy), `${viewer.role} ${permission} on ${folder.id}`).toBe(server);
            asked++;
          }
        }
      }
    }
    expect(asked).toBeGreaterThan(1000);
  });

  it('keeps a non-member out of a hidden board on the app side too (VIEW_BOARD), and lets a member in', () => {
    const member = boardAccess(workspace, { id: 2, role: 'admin' }, folders);
    const outsider = boardAccess(workspace, { id: 3, role: 'full-member' }, folders);
    expect(member.can('VIEW_BOARD', 'hidden')).toBe(true);
    // The app's own chain used to leave out the board's VIEW_BOARD entry and offered it.
    expect(outsider.can('VIEW_BOARD', 'hidden')).toBe(false);
    expect(outsider.can('VIEW_BOARD', 'open')).toBe(true);
  });

  it('refuses a broken or looping chain', () => {
    const loop = new Map([
      ['a', { id: 'a', parent_id: 'b' }],
      ['b', { id: 'b', parent_id: 'a' }],
    ]);
    expect(schemaChainTo(workspace, loop, 'a')).toBeNull();
    expect(boardAccess(workspace, { id: 1, role: 'owner' }, folders).can('VIEW_FOLDER', 'orphan')).toBe(false);
  });
});
