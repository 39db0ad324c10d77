/**
 * The permission model (DESIGN.md §4, shell.md §6, workspace.md §6), as pure functions that the
 * server (authoritative) and the client (greying out) both call. The reading is documented in
 * docs/permissions.md.
 *
 *   entry key   PERMISSION:tokenType:tokenValue[:owner]  →  'allow' | 'deny'
 *   tokens      role:owner 0 · user:{id} 10 · tag:guest_user 20 · tag:board_member 50 ·
 *               tag:board_locked_out 60 · role:{other role} 100   (lower is asked first)
 *   merge       defaults ← workspace ← board ← folder ← subfolder (each level's own entries win;
 *               inherited entries named in a level's final_permissions are dropped unless `:owner`)
 */
import { Messages } from './messages';
import {
  INVITED_GUEST_DEFAULTS,
  PERMISSION_NAMES,
  Permission,
  ROLES,
  ROLE_DEFAULTS,
  isPermissionName,
  permissionScope,
  type Grant,
  type PermissionName,
  type RoleOrGuest,
} from './permission-names';

export * from './permission-names';

export type PermissionEntries = Record<string, Grant>;

export const TOKEN_TYPES = ['user', 'role', 'tag'] as const;
export type TokenType = (typeof TOKEN_TYPES)[number];
export const TAGS = ['board_member', 'guest_user', 'board_locked_out'] as const;
export type Tag = (typeof TAGS)[number];

export const TOKEN_PRIORITY = {
  ownerRole: 0,
  user: 10,
  guest_user: 20,
  board_member: 50,
  board_locked_out: 60,
  role: 100,
} as const;

/** The resource types the factory knows. Boards are root folders; the workspace holds defaults. */
export const RESOURCE_TYPES = ['workspace', 'board', 'folder'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

export interface EntryKey {
  permission: string;
  tokenType: string;
  tokenValue: string;
  /** true when the 4th part is `owner`: the entry applies only to what the user created. */
  owner: boolean;
}

export function entryKey(permission: string, tokenType: TokenType, tokenValue: string | number, owner = false): string {
  return `${permission}:${tokenType}:${tokenValue}${owner ? ':owner' : ''}`;
}

/** Splits a key into its parts; null when it does not have 3 parts or 4 with `owner` last. */
export function parseEntryKey(key: string): EntryKey | null {
  const parts = key.split(':');
  if (parts.length !== 3 && parts.length !== 4) return null;
  if (parts.some((p) => p.length === 0)) return null;
  if (parts.length === 4 && parts[3] !== 'owner') return null;
  return { permission: parts[0]!, tokenType: parts[1]!, tokenValue: parts[2]!, owner: parts.length === 4 };
}

/** Problems with a set of entries someone wants to store (one message per bad entry). */
export function entryProblems(entries: unknown): string[] {
  if (!entries || typeof entries !== 'object' || Array.isArray(entries)) return ['permissions must be an object of entries'];
  const problems: string[] = [];
  for (const [key, value] of Object.entries(entries)) {
    const parsed = parseEntryKey(key);
    if (!parsed) {
      problems.push(`${key}: the key must read PERMISSION:tokenType:tokenValue[:owner]`);
      continue;
    }
    if (!isPermissionName(parsed.permission)) problems.push(`${key}: unknown permission ${parsed.permission}`);
    else if (parsed.tokenType === 'user' && !/^\d+$/.test(parsed.tokenValue)) problems.push(`${key}: a user token needs a numeric id`);
    else if (parsed.tokenType === 'role' && !([...ROLES, 'guest'] as string[]).includes(parsed.tokenValue)) problems.push(`${key}: unknown role ${parsed.tokenValue}`);
    else if (parsed.tokenType === 'tag' && !(TAGS as readonly string[]).includes(parsed.tokenValue)) problems.push(`${key}: unknown tag ${parsed.tokenValue}`);
    else if (!(TOKEN_TYPES as readonly string[]).includes(parsed.tokenType)) problems.push(`${key}: unknown token type ${parsed.tokenType}`);
    if (value !== 'allow' && value !== 'deny') problems.push(`${key}: the value must be allow or deny`);
  }
  return problems;
}

/** The entries every workspace starts from, built from ROLE_DEFAULTS (`own` → deny + `:owner` allow). */
export function defaultEntries(): PermissionEntries {
  const entries: PermissionEntries = {};
  const add = (tokenType: TokenType, tokenValue: string, grants: Partial<Record<PermissionName, Grant | 'own'>>) => {
    for (const [permission, grant] of Object.entries(grants)) {
      if (grant === 'own') {
        entries[entryKey(permission, tokenType, tokenValue)] = 'deny';
        entries[entryKey(permission, tokenType, tokenValue, true)] = 'allow';
      } else if (grant) {
        entries[entryKey(permission, tokenType, tokenValue)] = grant;
      }
    }
  };
  for (const [role, grants] of Object.entries(ROLE_DEFAULTS)) add('role', role, grants);
  add('tag', 'guest_user', INVITED_GUEST_DEFAULTS);
  return entries;
}
const DEFAULTS = defaultEntries();

/** One step of the chain from the workspace down to the resource asked about. */
export interface PermissionLevel {
  type: ResourceType;
  id?: string | number | null;
  /** The level's own entries. */
  permissions?: PermissionEntries | null;
  /** Permission names this level does not inherit (except `:owner` entries). */
  final_permissions?: string[] | null;
  /** Board or folder members; null/undefined = the same members as the parent (all workspace members at the top). */
  user_ids?: number[] | null;
  /** Who created this board or folder (for `:owner` entries asked about the level itself). */
  created_by?: number | null;
}

export interface PermissionUser {
  /** null for an anonymous visitor. */
  id: number | null;
  role: RoleOrGuest;
}

export interface PermissionQuery {
  permission: PermissionName;
  user: PermissionUser;
  /** Workspace first, then the board, then folders down to the resource (the last level). */
  chain: readonly PermissionLevel[];
  /** Creator of the thing acted on (item, comment, view); defaults to the last level's created_by. */
  createdBy?: number | null;
  /** Preview (pretend) mode allows everything. */
  preview?: boolean;
}

export interface Explanation {
  allowed: boolean;
  reason: 'preview' | 'entry' | 'no-entry' | 'required';
  /** The entry that decided, when one did. */
  entry?: string;
  /** The level type whose merged entries were read. */
  level?: ResourceType;
  /** When a required permission failed: which one, and why. */
  required?: { permission: PermissionName; explanation: Explanation };
}

/** Drops inherited entries named in final_permissions, keeping `:owner` ones. */
export function dropFinal(inherited: PermissionEntries, finalPermissions: readonly string[] | null | undefined): PermissionEntries {
  if (!finalPermissions || finalPermissions.length === 0) return { ...inherited };
  const out: PermissionEntries = {};
  for (const [key, grant] of Object.entries(inherited)) {
    const parsed = parseEntryKey(key);
    if (parsed && finalPermissions.includes(parsed.permission) && !parsed.owner) continue;
    out[key] = grant;
  }
  return out;
}

/** The merged entries of the last level of the chain: defaults, then each level over its parent. */
export function mergedEntries(chain: readonly PermissionLevel[]): PermissionEntries {
  let merged: PermissionEntries = { ...DEFAULTS };
  for (const level of chain) merged = { ...dropFinal(merged, level.final_permissions), ...(level.permissions ?? {}) };
  return merged;
}

function assertSupported(type: string): asserts type is ResourceType {
  if (!(RESOURCE_TYPES as readonly string[]).includes(type)) throw new Error(Messages.noPermissionFor(type));
}

/** Whether the user is a member of the board/folder at the end of the chain. */
function isMemberOf(user: PermissionUser, chain: readonly PermissionLevel[]): boolean {
  if (user.role === 'owner') return true;
  for (let i = chain.length - 1; i >= 0; i--) {
    const ids = chain[i]!.user_ids;
    if (ids) return user.id !== null && ids.includes(user.id);
  }
  // No member list anywhere: every workspace member belongs, guests do not.
  return user.role !== 'guest';
}

interface Token {
  type: TokenType;
  value: string;
  priority: number;
}

/** The user's tokens for the resource at the end of the chain, lowest priority number first. */
export function tokensFor(user: PermissionUser, chain: readonly PermissionLevel[]): Token[] {
  const tokens: Token[] = [];
  const resource = chain[chain.length - 1];
  tokens.push({ type: 'role', value: user.role, priority: user.role === 'owner' ? TOKEN_PRIORITY.ownerRole : TOKEN_PRIORITY.role });
  if (user.id !== null) tokens.push({ type: 'user', value: String(user.id), priority: TOKEN_PRIORITY.user });
  if (resource && resource.type !== 'workspace') {
    const member = isMemberOf(user, chain);
    if (member) tokens.push({ type: 'tag', value: 'board_member', priority: TOKEN_PRIORITY.board_member });
    else tokens.push({ type: 'tag', value: 'board_locked_out', priority: TOKEN_PRIORITY.board_locked_out });
    if (member && user.role === 'guest') tokens.push({ type: 'tag', value: 'guest_user', priority: TOKEN_PRIORITY.guest_user });
  }
  return tokens.sort((a, b) => a.priority - b.priority);
}

/** Explicit prerequisites beyond "anything on a board/folder needs to see it". */
export const REQUIRED_PERMISSIONS: Partial<Record<PermissionName, PermissionName[]>> = {
  [Permission.EDIT_FOLDER_SETTINGS]: [Permission.EDIT_FOLDER],
  [Permission.PIN_COMMENT]: [Permission.ADD_COMMENT],
  [Permission.EDIT_LOCKED_VIEWS]: [Permission.CUSTOMIZE_VIEW],
  [Permission.MANAGE_BOARD_MEMBERS]: [Permission.UPDATE_BOARD],
};

/** The view permission of a board or folder resource; null for the workspace. */
export function viewPermissionOf(type: ResourceType): PermissionName | null {
  return type === 'board' ? Permission.VIEW_BOARD : type === 'folder' ? Permission.VIEW_FOLDER : null;
}

/** What must also hold for the permission: [permission, chain it is asked on]. */
function requirementsOf(permission: PermissionName, chain: readonly PermissionLevel[]): [PermissionName, PermissionLevel[]][] {
  const out: [PermissionName, PermissionLevel[]][] = [];
  const resource = chain[chain.length - 1]!;
  const view = viewPermissionOf(resource.type);
  if (view && permission === view) {
    // A folder can be seen only if its parent can (folder checks recurse up to the board).
    const parentChain = chain.slice(0, -1);
    const parent = parentChain[parentChain.length - 1];
    if (resource.type === 'folder' && parent && parent.type !== 'workspace') out.push([viewPermissionOf(parent.type)!, parentChain]);
  } else if (view) {
    out.push([view, [...chain]]);
  }
  for (const required of REQUIRED_PERMISSIONS[permission] ?? []) out.push([required, [...chain]]);
  return out;
}

/** Reads the decision from merged entries: the first token (by priority) holding an entry decides. */
function decide(permission: PermissionName, user: PermissionUser, chain: readonly PermissionLevel[], createdBy: number | null | undefined): Explanation {
  const entries = mergedEntries(chain);
  const isCreator = user.id !== null && createdBy !== null && createdBy !== undefined && createdBy === user.id;
  const level = chain[chain.length - 1]?.type;
  for (const token of tokensFor(user, chain)) {
    // An owner-scoped entry is the more specific one, so it is asked before the plain one.
    const candidates = isCreator ? [entryKey(permission, token.type, token.value, true), entryKey(permission, token.type, token.value)] : [entryKey(permission, token.type, token.value)];
    for (const key of candidates) {
      const grant = entries[key];
      if (grant) return { allowed: grant === 'allow', reason: 'entry', entry: key, level };
    }
  }
  return { allowed: false, reason: 'no-entry', level };
}

/** Why the permission is allowed or not (the decision plus any failed requirement). */
export function explain(query: PermissionQuery): Explanation {
  if (query.preview) return { allowed: true, reason: 'preview' };
  if (query.chain.length === 0) throw new Error('A permission question needs at least one level (the workspace).');
  for (const level of query.chain) assertSupported(level.type);
  if (!isPermissionName(query.permission)) throw new Error(`Unknown permission ${String(query.permission)}`);

  // Workspace-wide permissions are read on the workspace, wherever they are asked.
  let chain = query.chain;
  if (permissionScope(query.permission) === 'workspace' && chain[0]!.type === 'workspace') chain = chain.slice(0, 1);
  const resource = chain[chain.length - 1]!;
  const createdBy = query.createdBy !== undefined ? query.createdBy : resource.created_by;

  const decision = decide(query.permission, query.user, chain, createdBy);
  if (!decision.allowed) return decision;
  for (const [permission, requiredChain] of requirementsOf(query.permission, chain)) {
    const sub = explain({ permission, user: query.user, chain: requiredChain, preview: false });
    if (!sub.allowed) return { allowed: false, reason: 'required', level: resource.type, required: { permission, explanation: sub } };
  }
  return decision;
}

/** True when the user may do this (see explain for the why). */
export function resolvePermission(query: PermissionQuery): boolean {
  return explain(query).allowed;
}
export const can = resolvePermission;

/** Every permission the user holds on the resource at the end of the chain. */
export function allowedPermissions(query: Omit<PermissionQuery, 'permission'>): PermissionName[] {
  return PERMISSION_NAMES.filter((permission) => resolvePermission({ ...query, permission }));
}

/** Marks a board or folder private to its members: non-members (board_locked_out) may not see it. */
export const HIDDEN_ENTRY = entryKey(Permission.VIEW_FOLDER, 'tag', 'board_locked_out');

/** A folder is hidden if it or a parent carries the hidden entry. */
export function isHidden(chain: readonly PermissionLevel[]): boolean {
  return chain.some((level) => level.type !== 'workspace' && level.permissions?.[HIDDEN_ENTRY] === 'deny');
}

/** A board (or folder) is public if an anonymous guest may view it. */
export function isPublic(chain: readonly PermissionLevel[]): boolean {
  const resource = chain[chain.length - 1];
  if (!resource) return false;
  assertSupported(resource.type);
  const view = viewPermissionOf(resource.type);
  if (!view) return false;
  return resolvePermission({ permission: view, user: { id: null, role: 'guest' }, chain });
}

/** The entries that make a board public: anonymous guests may view it and its folders. */
export const PUBLIC_ENTRIES: PermissionEntries = {
  [entryKey(Permission.VIEW_BOARD, 'role', 'guest')]: 'allow',
  [entryKey(Permission.VIEW_FOLDER, 'role', 'guest')]: 'allow',
};

/**
 * The permission factory: a checker bound to one resource type. Supports workspace, board and
 * folder; anything else fails with "there is no permission for {type}".
 */
export function permissionFor(type: string) {
  assertSupported(type);
  return {
    type,
    viewPermission: viewPermissionOf(type),
    can: (query: PermissionQuery) => {
      const last = query.chain[query.chain.length - 1];
      if (!last || last.type !== type) throw new Error(`The chain must end with a ${type}`);
      return resolvePermission(query);
    },
  };
}
