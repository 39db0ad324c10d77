import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Permission, type PermissionName } from '../../../schema/permissions';

/**
 * Permissions as sentences people read (issue #17 part 6: never VIEW_BOARD on screen), grouped as
 * the permission screens show them. The Record type makes every permission of
 * schema/permission-names.ts need a sentence.
 */
export const PERMISSION_LABELS: Record<PermissionName, MessageDescriptor> = {
  VIEW_BOARD: msg`See boards they are invited to`,
  VIEW_FOLDER: msg`See the folders of those boards`,
  CREATE_ITEM: msg`Create items`,
  EDIT_ITEM: msg`Edit items`,
  DELETE_ITEM: msg`Delete items`,
  CREATE_FOLDER: msg`Create folders`,
  EDIT_FOLDER: msg`Rename and move folders`,
  DELETE_FOLDER: msg`Delete folders`,
  EDIT_FOLDER_SETTINGS: msg`Change folder settings`,
  ADD_COMMENT: msg`Write comments`,
  DELETE_COMMENT: msg`Delete comments`,
  PIN_COMMENT: msg`Pin and unpin comments`,
  ADD_REACTION: msg`React to comments`,
  MANAGE_ATTRIBUTES: msg`Add, change and remove columns`,
  CREATE_VIEW: msg`Add views`,
  CUSTOMIZE_VIEW: msg`Change views (filters, sorting, grouping)`,
  DELETE_VIEW: msg`Delete views`,
  ACCESS_PERSONAL_VIEWS: msg`Use personal views`,
  EDIT_LOCKED_VIEWS: msg`Change locked views`,
  CREATE_BOARD: msg`Create boards`,
  DELETE_BOARD: msg`Delete boards`,
  UPDATE_BOARD: msg`Rename boards and change their details`,
  MANAGE_BOARD_MEMBERS: msg`Choose who is on a board`,
  SAVE_AS_TEMPLATE: msg`Save boards as templates`,
  EXPORT: msg`Export boards and folders`,
  INVITE_MEMBERS: msg`Invite people to the workspace`,
  REMOVE_MEMBERS: msg`Remove people from the workspace`,
  EDIT_MEMBER_ROLES: msg`Change people's roles`,
  EDIT_WORKSPACE_SETTINGS: msg`Change workspace settings`,
  DELETE_WORKSPACE: msg`Delete the workspace`,
  MANAGE_PERMISSIONS: msg`Change permissions`,
  USE_AI: msg`Use AI features`,
  VIEW_ACTIVITY_LOG: msg`See the activity log`,
  MANAGE_AUTOMATIONS: msg`Set up automations`,
  MANAGE_TRASH: msg`Empty and restore the trash`,
  MANAGE_WEBHOOKS: msg`Set up webhooks`,
};

export const PERMISSION_GROUPS: { title: MessageDescriptor; permissions: PermissionName[] }[] = [
  { title: msg`Items and folders`, permissions: [Permission.VIEW_BOARD, Permission.VIEW_FOLDER, Permission.CREATE_ITEM, Permission.EDIT_ITEM, Permission.DELETE_ITEM, Permission.CREATE_FOLDER, Permission.EDIT_FOLDER, Permission.DELETE_FOLDER, Permission.EDIT_FOLDER_SETTINGS] },
  { title: msg`Comments`, permissions: [Permission.ADD_COMMENT, Permission.DELETE_COMMENT, Permission.PIN_COMMENT, Permission.ADD_REACTION] },
  { title: msg`Columns and views`, permissions: [Permission.MANAGE_ATTRIBUTES, Permission.CREATE_VIEW, Permission.CUSTOMIZE_VIEW, Permission.DELETE_VIEW, Permission.ACCESS_PERSONAL_VIEWS, Permission.EDIT_LOCKED_VIEWS] },
  { title: msg`Boards`, permissions: [Permission.CREATE_BOARD, Permission.UPDATE_BOARD, Permission.MANAGE_BOARD_MEMBERS, Permission.DELETE_BOARD, Permission.SAVE_AS_TEMPLATE, Permission.EXPORT] },
  { title: msg`Workspace`, permissions: [Permission.INVITE_MEMBERS, Permission.REMOVE_MEMBERS, Permission.EDIT_MEMBER_ROLES, Permission.EDIT_WORKSPACE_SETTINGS, Permission.MANAGE_PERMISSIONS, Permission.DELETE_WORKSPACE] },
  { title: msg`Other features`, permissions: [Permission.VIEW_ACTIVITY_LOG, Permission.MANAGE_TRASH, Permission.MANAGE_AUTOMATIONS, Permission.MANAGE_WEBHOOKS, Permission.USE_AI] },
];
