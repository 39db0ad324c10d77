/**
 * Every permission named by the spec's wording (workspace.md §6 "Permission listing from wording"),
 * the workspace roles, and the default entries each role starts with.
 * Pure data: server and client both read it. See docs/permissions.md.
 */

export const Permission = {
  // Boards and folders ("view invited board and folders")
  VIEW_BOARD: 'VIEW_BOARD',
  VIEW_FOLDER: 'VIEW_FOLDER',
  // Items ("create, edit (own or all) and delete items")
  CREATE_ITEM: 'CREATE_ITEM',
  EDIT_ITEM: 'EDIT_ITEM',
  DELETE_ITEM: 'DELETE_ITEM',
  // Folders ("create, edit, delete folders; edit folder settings")
  CREATE_FOLDER: 'CREATE_FOLDER',
  EDIT_FOLDER: 'EDIT_FOLDER',
  DELETE_FOLDER: 'DELETE_FOLDER',
  EDIT_FOLDER_SETTINGS: 'EDIT_FOLDER_SETTINGS',
  // Comments ("add, delete, pin/unpin comments"; "reactions need permission")
  ADD_COMMENT: 'ADD_COMMENT',
  DELETE_COMMENT: 'DELETE_COMMENT',
  PIN_COMMENT: 'PIN_COMMENT',
  ADD_REACTION: 'ADD_REACTION',
  // Attributes and views ("manage attributes; create, customise, delete tabs; personal and locked views")
  MANAGE_ATTRIBUTES: 'MANAGE_ATTRIBUTES',
  CREATE_VIEW: 'CREATE_VIEW',
  CUSTOMIZE_VIEW: 'CUSTOMIZE_VIEW',
  DELETE_VIEW: 'DELETE_VIEW',
  ACCESS_PERSONAL_VIEWS: 'ACCESS_PERSONAL_VIEWS',
  EDIT_LOCKED_VIEWS: 'EDIT_LOCKED_VIEWS',
  // Boards ("create and delete boards; update board details and members; save as template; export")
  CREATE_BOARD: 'CREATE_BOARD',
  DELETE_BOARD: 'DELETE_BOARD',
  UPDATE_BOARD: 'UPDATE_BOARD',
  MANAGE_BOARD_MEMBERS: 'MANAGE_BOARD_MEMBERS',
  SAVE_AS_TEMPLATE: 'SAVE_AS_TEMPLATE',
  EXPORT: 'EXPORT',
  // Workspace ("invite and remove members; edit roles; settings; delete; manage permissions")
  INVITE_MEMBERS: 'INVITE_MEMBERS',
  REMOVE_MEMBERS: 'REMOVE_MEMBERS',
  EDIT_MEMBER_ROLES: 'EDIT_MEMBER_ROLES',
  EDIT_WORKSPACE_SETTINGS: 'EDIT_WORKSPACE_SETTINGS',
  DELETE_WORKSPACE: 'DELETE_WORKSPACE',
  MANAGE_PERMISSIONS: 'MANAGE_PERMISSIONS',
  // Other features ("use AI; view activity logs; manage automations; manage trash")
  USE_AI: 'USE_AI',
  VIEW_ACTIVITY_LOG: 'VIEW_ACTIVITY_LOG',
  MANAGE_AUTOMATIONS: 'MANAGE_AUTOMATIONS',
  MANAGE_TRASH: 'MANAGE_TRASH',
  // Webhooks (issue #14): create, change and delete the workspace's hooks; owners and admins by default.
  MANAGE_WEBHOOKS: 'MANAGE_WEBHOOKS',
} as const;

export type PermissionName = (typeof Permission)[keyof typeof Permission];
export const PERMISSION_NAMES = Object.values(Permission) as PermissionName[];

export function isPermissionName(value: string): value is PermissionName {
  return (PERMISSION_NAMES as string[]).includes(value);
}

/** Where a permission is asked: on the workspace itself, or on a board/folder (content). */
export type PermissionScope = 'workspace' | 'content';

const WORKSPACE_SCOPED: readonly PermissionName[] = [
  Permission.CREATE_BOARD,
  Permission.INVITE_MEMBERS,
  Permission.REMOVE_MEMBERS,
  Permission.EDIT_MEMBER_ROLES,
  Permission.EDIT_WORKSPACE_SETTINGS,
  Permission.DELETE_WORKSPACE,
  Permission.MANAGE_PERMISSIONS,
  Permission.USE_AI,
  Permission.VIEW_ACTIVITY_LOG,
  Permission.MANAGE_TRASH,
  Permission.MANAGE_WEBHOOKS,
];

export function permissionScope(permission: PermissionName): PermissionScope {
  return WORKSPACE_SCOPED.includes(permission) ? 'workspace' : 'content';
}

/** Workspace roles (workspace.md §6). Non-members are `guest`. */
export const ROLES = ['owner', 'admin', 'full-member', 'restricted-member'] as const;
export type Role = (typeof ROLES)[number];
export type RoleOrGuest = Role | 'guest';
/** The roles a member can be given: everything but owner (ownership is transferred, not assigned). */
export const ASSIGNABLE_ROLES = ['admin', 'full-member', 'restricted-member'] as const;
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];
export const ROLE_LABELS: Record<RoleOrGuest, string> = {
  owner: 'Owner',
  admin: 'Admin',
  'full-member': 'Full Member',
  'restricted-member': 'Restricted Member',
  guest: 'Guest',
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
export function isAssignableRole(value: unknown): value is AssignableRole {
  return typeof value === 'string' && (ASSIGNABLE_ROLES as readonly string[]).includes(value);
}

export type Grant = 'allow' | 'deny';
/** A default grant: plain, or `own` = allowed only on what the user created (an `:owner` entry). */
type DefaultGrant = Grant | 'own';

const P = Permission;
const ALL: PermissionName[] = PERMISSION_NAMES;

/** Full members: every content action, boards, AI, activity and automations; no workspace admin. */
const FULL_MEMBER: Partial<Record<PermissionName, DefaultGrant>> = {
  ...Object.fromEntries(ALL.map((p) => [p, 'allow'])),
  [P.DELETE_COMMENT]: 'own',
  [P.DELETE_BOARD]: 'own',
  [P.EDIT_LOCKED_VIEWS]: 'deny',
  [P.INVITE_MEMBERS]: 'deny',
  [P.REMOVE_MEMBERS]: 'deny',
  [P.EDIT_MEMBER_ROLES]: 'deny',
  [P.EDIT_WORKSPACE_SETTINGS]: 'deny',
  [P.DELETE_WORKSPACE]: 'deny',
  [P.MANAGE_PERMISSIONS]: 'deny',
  [P.MANAGE_TRASH]: 'deny',
  [P.MANAGE_WEBHOOKS]: 'deny',
};

/** Restricted members: view, create items, edit and delete their own items, comment and react. */
const RESTRICTED_MEMBER: Partial<Record<PermissionName, DefaultGrant>> = {
  ...Object.fromEntries(ALL.map((p) => [p, 'deny'])),
  [P.VIEW_BOARD]: 'allow',
  [P.VIEW_FOLDER]: 'allow',
  [P.CREATE_ITEM]: 'allow',
  [P.EDIT_ITEM]: 'own',
  [P.DELETE_ITEM]: 'own',
  [P.ADD_COMMENT]: 'allow',
  [P.DELETE_COMMENT]: 'own',
  [P.ADD_REACTION]: 'allow',
  [P.ACCESS_PERSONAL_VIEWS]: 'allow',
};

/**
 * Default grants per role. Owner and admin may do everything, except that deleting the workspace
 * is the owner's alone (workspace.md §6 "an owner-only check compares owner_id").
 * Guests get nothing by default: a board becomes public by granting VIEW_BOARD to `role:guest`.
 */
export const ROLE_DEFAULTS: Record<RoleOrGuest, Partial<Record<PermissionName, DefaultGrant>>> = {
  owner: Object.fromEntries(ALL.map((p) => [p, 'allow'])),
  admin: { ...Object.fromEntries(ALL.map((p) => [p, 'allow'])), [P.DELETE_WORKSPACE]: 'deny' },
  'full-member': FULL_MEMBER,
  'restricted-member': RESTRICTED_MEMBER,
  guest: {},
};

/** Guests who were invited to a board (tag:guest_user) may view it and its folders. */
export const INVITED_GUEST_DEFAULTS: Partial<Record<PermissionName, DefaultGrant>> = {
  [P.VIEW_BOARD]: 'allow',
  [P.VIEW_FOLDER]: 'allow',
};
