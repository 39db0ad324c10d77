import { describe, expect, it } from 'vitest';
import {
  HIDDEN_ENTRY,
  PERMISSION_NAMES,
  PUBLIC_ENTRIES,
  Permission,
  ROLES,
  allowedPermissions,
  can,
  defaultEntries,
  entryKey,
  entryProblems,
  explain,
  isHidden,
  isPublic,
  mergedEntries,
  parseEntryKey,
  permissionFor,
  resolvePermission,
  tokensFor,
  type PermissionLevel,
  type PermissionUser,
} from '../../schema/permissions';

const workspace = (permissions: Record<string, 'allow' | 'deny'> = {}): PermissionLevel => ({ type: 'workspace', id: 1, permissions });
const board = (extra: Partial<PermissionLevel> = {}): PermissionLevel => ({ type: 'board', id: 'b1', ...extra });
const folder = (extra: Partial<PermissionLevel> = {}): PermissionLevel => ({ type: 'folder', id: 'f1', ...extra });

const owner: PermissionUser = { id: 1, role: 'owner' };
const admin: PermissionUser = { id: 2, role: 'admin' };
const full: PermissionUser = { id: 3, role: 'full-member' };
const restricted: PermissionUser = { id: 4, role: 'restricted-member' };
const guest: PermissionUser = { id: null, role: 'guest' };

describe('entry keys', () => {
  it('parses three- and four-part keys and rejects others', () => {
    expect(parseEntryKey('EDIT_ITEM:role:restricted-member:owner')).toEqual({ permission: 'EDIT_ITEM', tokenType: 'role', tokenValue: 'restricted-member', owner: true });
    expect(parseEntryKey('VIEW_BOARD:user:7')).toEqual({ permission: 'VIEW_BOARD', tokenType: 'user', tokenValue: '7', owner: false });
    expect(parseEntryKey('VIEW_BOARD:user')).toBeNull();
    expect(parseEntryKey('VIEW_BOARD:user:7:mine')).toBeNull();
    expect(parseEntryKey('VIEW_BOARD::7')).toBeNull();
  });

  it('lists every problem of entries someone wants to store', () => {
    expect(entryProblems({ 'VIEW_BOARD:role:admin': 'allow' })).toEqual([]);
    const problems = entryProblems({ 'NOPE:role:admin': 'allow', 'VIEW_BOARD:role:king': 'allow', 'VIEW_BOARD:user:x': 'deny', 'VIEW_BOARD:tag:friends': 'allow', 'VIEW_BOARD:role:admin': 'maybe', bad: 'allow' });
    expect(problems).toHaveLength(6);
    expect(problems.join('\n')).toContain('unknown permission NOPE');
    expect(entryProblems([])).toEqual(['permissions must be an object of entries']);
  });

  it('has a constant and a default for every role for every listed permission', () => {
    expect(PERMISSION_NAMES).toHaveLength(36);
    const defaults = defaultEntries();
    for (const permission of PERMISSION_NAMES) {
      for (const role of ROLES) expect(defaults[entryKey(permission, 'role', role)], `${permission} ${role}`).toBeDefined();
    }
  });
});

describe('role defaults', () => {
  const chain = [workspace(), board()];
  it('lets owner and admin do everything on a board, but only the owner deletes the workspace', () => {
    for (const p of PERMISSION_NAMES) expect(can({ permission: p, user: owner, chain }), p).toBe(true);
    expect(can({ permission: Permission.DELETE_WORKSPACE, user: admin, chain })).toBe(false);
    expect(can({ permission: Permission.MANAGE_PERMISSIONS, user: admin, chain })).toBe(true);
  });

  it('gives full members content actions but no workspace administration', () => {
    expect(can({ permission: Permission.MANAGE_ATTRIBUTES, user: full, chain })).toBe(true);
    expect(can({ permission: Permission.CREATE_BOARD, user: full, chain })).toBe(true);
    expect(can({ permission: Permission.INVITE_MEMBERS, user: full, chain })).toBe(false);
    expect(can({ permission: Permission.EDIT_WORKSPACE_SETTINGS, user: full, chain: [workspace()] })).toBe(false);
  });

  it('lets restricted members view, create items and comment, but not manage', () => {
    expect(can({ permission: Permission.VIEW_BOARD, user: restricted, chain })).toBe(true);
    expect(can({ permission: Permission.CREATE_ITEM, user: restricted, chain })).toBe(true);
    expect(can({ permission: Permission.ADD_COMMENT, user: restricted, chain })).toBe(true);
    expect(can({ permission: Permission.MANAGE_ATTRIBUTES, user: restricted, chain })).toBe(false);
    expect(can({ permission: Permission.CREATE_BOARD, user: restricted, chain })).toBe(false);
  });

  it('gives guests nothing on a private board', () => {
    expect(allowedPermissions({ user: guest, chain })).toEqual([]);
    expect(allowedPermissions({ user: { id: 99, role: 'guest' }, chain })).toEqual([]);
  });
});

describe('owner-scoped entries', () => {
  const chain = [workspace(), board()];
  it('lets a restricted member edit and delete only the items they created', () => {
    expect(can({ permission: Permission.EDIT_ITEM, user: restricted, chain, createdBy: restricted.id })).toBe(true);
    expect(can({ permission: Permission.DELETE_ITEM, user: restricted, chain, createdBy: restricted.id })).toBe(true);
    expect(can({ permission: Permission.EDIT_ITEM, user: restricted, chain, createdBy: full.id })).toBe(false);
    expect(can({ permission: Permission.EDIT_ITEM, user: restricted, chain })).toBe(false);
    expect(explain({ permission: Permission.EDIT_ITEM, user: restricted, chain, createdBy: 4 }).entry).toBe('EDIT_ITEM:role:restricted-member:owner');
  });

  it('reads the creator from the resource when the query names none', () => {
    const own = [workspace(), board({ created_by: full.id })];
    const other = [workspace(), board({ created_by: admin.id })];
    expect(can({ permission: Permission.DELETE_BOARD, user: full, chain: own })).toBe(true);
    expect(can({ permission: Permission.DELETE_BOARD, user: full, chain: other })).toBe(false);
  });
});

describe('token priority', () => {
  it('orders tokens: owner role, user, guest tag, board member, locked out, other roles', () => {
    const invitedGuest: PermissionUser = { id: 9, role: 'guest' };
    const chain = [workspace(), board({ user_ids: [9] })];
    expect(tokensFor(invitedGuest, chain).map((t) => `${t.type}:${t.value}`)).toEqual(['user:9', 'tag:guest_user', 'tag:board_member', 'role:guest']);
    expect(tokensFor(owner, chain).map((t) => `${t.type}:${t.value}`)).toEqual(['role:owner', 'user:1', 'tag:board_member']);
    expect(tokensFor(full, chain).map((t) => `${t.type}:${t.value}`)).toEqual(['user:3', 'tag:board_locked_out', 'role:full-member']);
  });

  it('lets a user entry beat the role entry', () => {
    const chain = [workspace(), board({ permissions: { 'MANAGE_ATTRIBUTES:user:4': 'allow' } })];
    expect(can({ permission: Permission.MANAGE_ATTRIBUTES, user: restricted, chain })).toBe(true);
    expect(explain({ permission: Permission.MANAGE_ATTRIBUTES, user: restricted, chain }).entry).toBe('MANAGE_ATTRIBUTES:user:4');
  });

  it('lets the owner role (0) beat a user entry (10)', () => {
    const chain = [workspace(), board({ permissions: { 'VIEW_BOARD:user:1': 'deny' } })];
    expect(can({ permission: Permission.VIEW_BOARD, user: owner, chain })).toBe(true);
  });

  it('locks non-members out of a private board while members keep their role rights', () => {
    const chain = [workspace(), board({ user_ids: [3], permissions: { 'VIEW_BOARD:tag:board_locked_out': 'deny' } })];
    expect(can({ permission: Permission.VIEW_BOARD, user: full, chain })).toBe(true);
    expect(can({ permission: Permission.VIEW_BOARD, user: restricted, chain })).toBe(false);
    expect(can({ permission: Permission.VIEW_BOARD, user: owner, chain })).toBe(true); // the owner counts as a board member
  });

  it('lets invited guests view a board through tag:guest_user, other guests not', () => {
    const chain = [workspace(), board({ user_ids: [9] })];
    expect(can({ permission: Permission.VIEW_BOARD, user: { id: 9, role: 'guest' }, chain })).toBe(true);
    expect(can({ permission: Permission.CREATE_ITEM, user: { id: 9, role: 'guest' }, chain })).toBe(false);
    expect(can({ permission: Permission.VIEW_BOARD, user: { id: 10, role: 'guest' }, chain })).toBe(false);
  });
});

describe('inheritance and final_permissions', () => {
  it('inherits workspace entries into boards and board entries into folders, own entries winning', () => {
    const ws = workspace({ 'MANAGE_ATTRIBUTES:role:restricted-member': 'allow' });
    expect(can({ permission: Permission.MANAGE_ATTRIBUTES, user: restricted, chain: [ws, board(), folder()] })).toBe(true);
    const f = folder({ permissions: { 'MANAGE_ATTRIBUTES:role:restricted-member': 'deny' } });
    expect(can({ permission: Permission.MANAGE_ATTRIBUTES, user: restricted, chain: [ws, board(), f] })).toBe(false);
    expect(can({ permission: Permission.MANAGE_ATTRIBUTES, user: restricted, chain: [ws, board()] })).toBe(true);
  });

  it('drops inherited entries named in final_permissions, except owner-scoped ones', () => {
    const b = board({ permissions: { 'CREATE_ITEM:user:3': 'deny', 'EDIT_ITEM:user:3:owner': 'allow', 'EDIT_ITEM:user:3': 'deny' } });
    const f = folder({ final_permissions: ['CREATE_ITEM', 'EDIT_ITEM'] });
    const merged = mergedEntries([workspace(), b, f]);
    expect(merged['CREATE_ITEM:user:3']).toBeUndefined();
    expect(merged['EDIT_ITEM:user:3']).toBeUndefined();
    expect(merged['EDIT_ITEM:user:3:owner']).toBe('allow');
    // The board denies user 3; a final folder inherits nothing for CREATE_ITEM, so only its own entries count.
    expect(can({ permission: Permission.CREATE_ITEM, user: full, chain: [workspace(), b] })).toBe(false);
    expect(can({ permission: Permission.CREATE_ITEM, user: full, chain: [workspace(), b, f] })).toBe(false);
    const own = { 'CREATE_ITEM:role:full-member': 'allow' } as const;
    expect(can({ permission: Permission.CREATE_ITEM, user: full, chain: [workspace(), b, folder({ permissions: own })] })).toBe(false);
    expect(can({ permission: Permission.CREATE_ITEM, user: full, chain: [workspace(), b, { ...f, permissions: own }] })).toBe(true);
    // The final folder dropped the role defaults too, so only the kept owner entry grants edit.
    expect(can({ permission: Permission.EDIT_ITEM, user: restricted, chain: [workspace(), board(), f], createdBy: 4 })).toBe(true);
    expect(can({ permission: Permission.EDIT_ITEM, user: full, chain: [workspace(), b, f], createdBy: 3 })).toBe(true);
    expect(can({ permission: Permission.EDIT_ITEM, user: full, chain: [workspace(), b, f], createdBy: 1 })).toBe(false);
  });
});

describe('required permissions, hidden and public', () => {
  it('needs VIEW_BOARD for VIEW_FOLDER, and view for any other action', () => {
    const b = board({ permissions: { 'VIEW_BOARD:user:3': 'deny' } });
    const e = explain({ permission: Permission.VIEW_FOLDER, user: full, chain: [workspace(), b, folder()] });
    expect(e.allowed).toBe(false);
    expect(e.reason).toBe('required');
    expect(e.required?.permission).toBe('VIEW_BOARD');
    expect(can({ permission: Permission.CREATE_ITEM, user: full, chain: [workspace(), b] })).toBe(false);
    expect(explain({ permission: Permission.CREATE_ITEM, user: full, chain: [workspace(), b] }).required?.permission).toBe('VIEW_BOARD');
  });

  it('recurses up parent folders', () => {
    const parent = folder({ id: 'p', permissions: { 'VIEW_FOLDER:role:full-member': 'deny' } });
    const child = folder({ id: 'c', permissions: { 'VIEW_FOLDER:role:full-member': 'allow' } });
    expect(can({ permission: Permission.VIEW_FOLDER, user: full, chain: [workspace(), board(), parent, child] })).toBe(false);
    expect(can({ permission: Permission.EDIT_ITEM, user: full, chain: [workspace(), board(), parent, child] })).toBe(false);
    expect(can({ permission: Permission.VIEW_FOLDER, user: full, chain: [workspace(), board(), child] })).toBe(true);
  });

  it('checks explicit prerequisites (pinning needs commenting)', () => {
    const b = board({ permissions: { 'ADD_COMMENT:role:full-member': 'deny' } });
    expect(can({ permission: Permission.PIN_COMMENT, user: full, chain: [workspace(), board()] })).toBe(true);
    expect(can({ permission: Permission.PIN_COMMENT, user: full, chain: [workspace(), b] })).toBe(false);
  });

  it('hides a folder when it or a parent is hidden, from non-members only', () => {
    const hiddenParent = folder({ id: 'p', user_ids: [3], permissions: { [HIDDEN_ENTRY]: 'deny' } });
    const child = folder({ id: 'c' });
    expect(isHidden([workspace(), board(), hiddenParent, child])).toBe(true);
    expect(isHidden([workspace(), board(), child])).toBe(false);
    expect(can({ permission: Permission.VIEW_FOLDER, user: restricted, chain: [workspace(), board(), hiddenParent, child] })).toBe(false);
    expect(can({ permission: Permission.VIEW_FOLDER, user: full, chain: [workspace(), board(), hiddenParent, child] })).toBe(true);
  });

  it('calls a board public when an anonymous guest may view it', () => {
    expect(isPublic([workspace(), board()])).toBe(false);
    const pub = board({ permissions: PUBLIC_ENTRIES });
    expect(isPublic([workspace(), pub])).toBe(true);
    expect(isPublic([workspace(), pub, folder()])).toBe(true);
    expect(isPublic([workspace(), pub, folder({ permissions: { 'VIEW_FOLDER:role:guest': 'deny' } })])).toBe(false);
    expect(can({ permission: Permission.EDIT_ITEM, user: guest, chain: [workspace(), pub] })).toBe(false);
  });
});

describe('workspace permissions, preview and the factory', () => {
  it('reads workspace-wide permissions on the workspace even when asked on a board', () => {
    const b = board({ permissions: { 'INVITE_MEMBERS:role:full-member': 'allow' } });
    expect(can({ permission: Permission.INVITE_MEMBERS, user: full, chain: [workspace(), b] })).toBe(false);
    const ws = workspace({ 'INVITE_MEMBERS:role:full-member': 'allow' });
    expect(can({ permission: Permission.INVITE_MEMBERS, user: full, chain: [ws] })).toBe(true);
  });

  it('allows everything in preview mode', () => {
    expect(resolvePermission({ permission: Permission.DELETE_WORKSPACE, user: guest, chain: [workspace()], preview: true })).toBe(true);
    expect(explain({ permission: Permission.DELETE_WORKSPACE, user: guest, chain: [], preview: true }).reason).toBe('preview');
  });

  it('fails for an unsupported resource type with the catalogue message', () => {
    expect(() => permissionFor('item')).toThrow('there is no permission for item');
    expect(() => can({ permission: Permission.VIEW_BOARD, user: full, chain: [{ type: 'comment' as never }] })).toThrow('there is no permission for comment');
    expect(permissionFor('folder').can({ permission: Permission.VIEW_FOLDER, user: full, chain: [workspace(), board(), folder()] })).toBe(true);
    expect(() => permissionFor('folder').can({ permission: Permission.VIEW_FOLDER, user: full, chain: [workspace(), board()] })).toThrow();
  });
});
