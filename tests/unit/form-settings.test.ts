import { describe, expect, it } from 'vitest';
import { FORM_FIELD_KINDS, kindSettingsOf, resolveViewSettings, viewSettingsProblems } from '../../schema/views';
import { checkAnswers, FormMessages } from '../../server/forms/answers';
import { addField, changeField, formLink, moveField, removeField } from '../../src/boards/form/form-draft';

/** The Form view's settings (decision 0130): defaults, resolution against the board, the answer rules. */
const attrs = [
  { id: 'name', kind: 'primary' },
  { id: 'mail', kind: 'email' },
  { id: 'who', kind: 'members' },
  { id: 'refs', kind: 'reference' },
  { id: 'gone', kind: 'text', deleted_at: '2026-01-01T00:00:00Z' },
  { id: 'state', kind: 'status', settings: { options: [{ id: 'open', name: 'Open', color: '#FFFFFF' }] } },
  { id: 'go', kind: 'button' },
  { id: 'files', kind: 'attachments' },
  { id: 'ok', kind: 'checkbox' },
];

describe('form view settings', () => {
  it('a form saved with {} is disabled and asks every attribute a form can ask, the name required', () => {
    expect(viewSettingsProblems('form', {})).toEqual([]);
    expect(kindSettingsOf('form', {})).toMatchObject({ enabled: false, title: '', confirmation: '', target_folder_id: null });
    const s = resolveViewSettings('form', {}, attrs);
    expect(s.enabled).toBe(false);
    expect(s.fields).toEqual([
      { attribute_id: 'name', label: '', help: '', required: true },
      { attribute_id: 'mail', label: '', help: '', required: false },
      { attribute_id: 'state', label: '', help: '', required: false },
      { attribute_id: 'files', label: '', help: '', required: false },
      { attribute_id: 'ok', label: '', help: '', required: false },
    ]);
    expect(FORM_FIELD_KINDS).not.toContain('members');
    expect(FORM_FIELD_KINDS).not.toContain('reference');
  });

  it('keeps chosen fields in their order, once each, dropping deleted attributes and kinds a form cannot ask', () => {
    const s = resolveViewSettings(
      'form',
      { enabled: true, fields: [{ attribute_id: 'mail', required: true, label: 'E-mail' }, { attribute_id: 'gone' }, { attribute_id: 'who' }, { attribute_id: 'name' }, { attribute_id: 'mail' }, { attribute_id: 'nope' }] },
      attrs,
    );
    expect(s.enabled).toBe(true);
    expect(s.fields).toEqual([
      { attribute_id: 'mail', label: 'E-mail', help: '', required: true },
      { attribute_id: 'name', label: '', help: '', required: false },
    ]);
    // An explicit empty list is a form that asks nothing (not "every attribute").
    expect(resolveViewSettings('form', { fields: [] }, attrs).fields).toEqual([]);
  });

  it('refuses bad settings by key', () => {
    expect(viewSettingsProblems('form', { enabled: 'yes' })[0]).toMatch(/^settings\.enabled: /);
    expect(viewSettingsProblems('form', { fields: [{ attribute_id: '' }] })[0]).toMatch(/^settings\.fields\.0\.attribute_id: /);
    expect(viewSettingsProblems('form', { confirmation: 'x'.repeat(2001) })[0]).toMatch(/^settings\.confirmation: /);
  });
});

describe('form answers', () => {
  const byId = new Map(attrs.map((a) => [a.id, a]));
  const fields = resolveViewSettings('form', { fields: [{ attribute_id: 'name', required: true }, { attribute_id: 'mail' }, { attribute_id: 'state' }, { attribute_id: 'ok', required: true }, { attribute_id: 'files', required: true }] }, attrs).fields;

  it('normalises good answers and leaves empty ones out', () => {
    const r = checkAnswers(fields, byId, { name: '  Printer jam ', mail: '', state: 'open', ok: true }, new Set(['files']));
    expect(r.problems).toEqual({});
    expect([...r.values]).toEqual([['name', 'Printer jam'], ['state', 'open'], ['ok', true]]);
  });

  it('names each problem by field: required, the attribute rule, not asked, attachments only as files', () => {
    const r = checkAnswers(fields, byId, { name: '   ', mail: 'nope', state: 'closed', ok: false, who: [1], files: [{ url: 'https://x.test/a' }] });
    expect(r.problems).toEqual({ name: FormMessages.required, mail: 'enter a valid email address', state: 'choose one of the options', ok: FormMessages.required, who: FormMessages.notAsked, files: FormMessages.filesOnly });
    expect(checkAnswers(fields, byId, { name: 'x', ok: true }).problems).toEqual({ files: FormMessages.required });
  });
});

describe('form builder edits', () => {
  const f = (id: string) => ({ attribute_id: id, label: '', help: '', required: false });
  it('moves, adds, removes and changes questions without touching the others', () => {
    const fields = [f('a'), f('b'), f('c')];
    expect(moveField(fields, 1, -1).map((x) => x.attribute_id)).toEqual(['b', 'a', 'c']);
    expect(moveField(fields, 2, 1).map((x) => x.attribute_id)).toEqual(['a', 'b', 'c']);
    expect(addField(fields, 'd').map((x) => x.attribute_id)).toEqual(['a', 'b', 'c', 'd']);
    expect(addField(fields, 'a')).toHaveLength(3);
    expect(removeField(fields, 'b').map((x) => x.attribute_id)).toEqual(['a', 'c']);
    expect(changeField(fields, 'c', { required: true, label: 'C?' })[2]).toEqual({ attribute_id: 'c', label: 'C?', help: '', required: true });
    expect(fields.map((x) => x.attribute_id)).toEqual(['a', 'b', 'c']);
    expect(formLink('https://cairn.test', 'abc_1')).toBe('https://cairn.test/form/abc_1');
  });
});
