import { describe, expect, it } from 'vitest';
import { canSeeView, viewChangeProblem, ViewMessages, viewSettingsOf } from '../../schema/views';

const member = { userId: 7, isWorkspaceOwner: false, canEditLocked: false, canCustomize: true };
const owner = { userId: 1, isWorkspaceOwner: true, canEditLocked: true, canCustomize: true };

describe('folder view settings', () => {
  it('fills defaults and falls back on broken settings', () => {
    expect(viewSettingsOf({})).toMatchObject({ sort: [], filters: [], group_by: null, hide_empty_groups: false, column_widths: {}, hidden_columns: [] });
    expect(viewSettingsOf({ column_widths: { a: 5 } }).column_widths).toEqual({});
    expect(viewSettingsOf({ sort: [{ attribute_id: 'x' }] }).sort).toEqual([{ attribute_id: 'x', direction: 'asc' }]);
  });
});

describe('view visibility', () => {
  it('shows a personal view only to its owner and the workspace owner', () => {
    const view = { visibility: 'personal', owner_id: 7 };
    expect(canSeeView(view, member)).toBe(true);
    expect(canSeeView(view, { ...member, userId: 8 })).toBe(false);
    expect(canSeeView(view, owner)).toBe(true);
    expect(canSeeView({ visibility: 'shared', owner_id: 7 }, { ...member, userId: 8 })).toBe(true);
  });

  it('lets only the view owner make a view personal', () => {
    expect(viewChangeProblem({ visibility: 'shared', owner_id: 7 }, { visibility: 'personal' }, member)).toBeNull();
    expect(viewChangeProblem({ visibility: 'shared', owner_id: 7 }, { visibility: 'personal' }, { ...owner, userId: 1 })).toBe(ViewMessages.personalOnlyByOwner);
    expect(viewChangeProblem(null, { visibility: 'personal' }, member)).toBeNull();
  });

  it('needs EDIT_LOCKED_VIEWS to lock, unlock or change a locked view', () => {
    expect(viewChangeProblem({ visibility: 'shared', owner_id: 7 }, { visibility: 'locked' }, member)).toBe(ViewMessages.lockedNeedsPermission);
    expect(viewChangeProblem({ visibility: 'locked', owner_id: 7 }, { visibility: 'locked' }, member)).toBe(ViewMessages.lockedNeedsPermission);
    expect(viewChangeProblem({ visibility: 'locked', owner_id: 7 }, { visibility: 'shared' }, { ...member, canEditLocked: true })).toBeNull();
  });

  it('keeps people out of somebody else’s personal view and needs CUSTOMIZE_VIEW', () => {
    expect(viewChangeProblem({ visibility: 'personal', owner_id: 7 }, { visibility: 'personal' }, { ...member, userId: 8 })).toBe(ViewMessages.notYours);
    expect(viewChangeProblem({ visibility: 'shared', owner_id: 7 }, { visibility: 'shared' }, { ...member, canCustomize: false })).toBe(ViewMessages.noPermission);
  });
});
