import { describe, expect, it } from 'vitest';
import { AttributeMessages, ATTRIBUTE_KINDS, attributeProblems, checkValue, findDuplicateAttribute, isValidDate, newLabel, hasSafeScheme, normalizeUrl, settingsOf } from '../../schema/attributes';

const status = { id: 's', kind: 'status', settings: { options: [{ id: 'todo', name: 'To do' }, { id: 'done', name: 'Done', done: true }] } };
const label = (multiple: boolean) => ({ id: 'l', kind: 'label', settings: { multiple, options: [newLabel('a', 'Red'), newLabel('b', 'Blue')] } });

describe('attribute kinds', () => {
  it('names every kind of workspace.md §3 plus number, status, link and date range', () => {
    for (const kind of ['primary', 'long-text', 'date', 'members', 'email', 'reference', 'checkbox', 'button', 'attachments', 'custom-id', 'label', 'number', 'status', 'link', 'date-range']) {
      expect(ATTRIBUTE_KINDS).toContain(kind);
    }
  });

  it('gives labels the default text colour #4C4E69 and requires a name', () => {
    const settings = settingsOf('label', { options: [{ id: 'x', name: 'Urgent', color: '#FF0000' }] });
    expect(settings.options[0]).toMatchObject({ name: 'Urgent', color: '#FF0000', textColor: '#4C4E69' });
    const problems = attributeProblems({ kind: 'label', name: 'Tags', settings: { options: [{ id: 'x', name: '  ' }] } }, []);
    expect(problems.join()).toContain(AttributeMessages.labelNeedsName);
  });
});

describe('value validation per kind', () => {
  it('treats empty input as valid (null)', () => {
    for (const kind of ['email', 'link', 'date', 'number', 'members']) expect(checkValue({ kind }, '')).toEqual({ ok: true, value: null });
    expect(checkValue({ kind: 'members' }, [])).toEqual({ ok: true, value: null });
  });

  it('wants a valid email', () => {
    expect(checkValue({ kind: 'email' }, ' ada@example.com ')).toEqual({ ok: true, value: 'ada@example.com' });
    expect(checkValue({ kind: 'email' }, 'ada@example')).toEqual({ ok: false, message: AttributeMessages.invalidEmail });
  });

  it('wants a valid URL and adds https to a bare host', () => {
    expect(checkValue({ kind: 'link' }, 'example.com/x')).toEqual({ ok: true, value: { url: 'https://example.com/x' } });
    expect(checkValue({ kind: 'link' }, { url: 'http://a.io', text: ' Docs ' })).toEqual({ ok: true, value: { url: 'http://a.io/', text: 'Docs' } });
    for (const bad of ['not a url', 'javascript:alert(1)', 'ftp://a.io', 'http://nodot']) expect(checkValue({ kind: 'link' }, bad)).toEqual({ ok: false, message: AttributeMessages.invalidUrl });
    expect(normalizeUrl('http://localhost:3000')).toBe('http://localhost:3000/');
  });

  it('refuses an end date before its start date', () => {
    expect(checkValue({ kind: 'date-range' }, { start: '2026-03-02', end: '2026-03-01' })).toEqual({ ok: false, message: AttributeMessages.endBeforeStart });
    expect(checkValue({ kind: 'date-range' }, { start: '2026-03-02', end: '2026-03-02' }).ok).toBe(true);
    expect(checkValue({ kind: 'date-range' }, { start: '2026-02-30', end: '2026-03-02' })).toEqual({ ok: false, message: AttributeMessages.invalidDate });
  });

  it('checks calendar dates, with an optional time', () => {
    expect(isValidDate('2024-02-29')).toBe(true);
    expect(isValidDate('2023-02-29')).toBe(false);
    expect(isValidDate('2024-01-01T23:59')).toBe(true);
    expect(isValidDate('2024-01-01T24:00')).toBe(false);
    expect(isValidDate('1/2/2024')).toBe(false);
  });

  it('parses numbers, including a decimal comma', () => {
    expect(checkValue({ kind: 'number' }, '3,5')).toEqual({ ok: true, value: 3.5 });
    expect(checkValue({ kind: 'number' }, 'abc')).toEqual({ ok: false, message: AttributeMessages.invalidNumber });
    expect(checkValue({ kind: 'number' }, Infinity).ok).toBe(false);
  });

  it('accepts only known options for status and label, one label unless multiple', () => {
    expect(checkValue(status, 'done')).toEqual({ ok: true, value: 'done' });
    expect(checkValue(status, 'nope')).toEqual({ ok: false, message: AttributeMessages.unknownOption });
    expect(checkValue(label(false), ['a'])).toEqual({ ok: true, value: 'a' });
    expect(checkValue(label(false), ['a', 'b'])).toEqual({ ok: false, message: AttributeMessages.multipleLabel });
    expect(checkValue(label(true), ['a', 'b', 'a'])).toEqual({ ok: true, value: ['a', 'b'] });
  });

  it('deduplicates members and references; refuses values for action-only kinds', () => {
    expect(checkValue({ kind: 'members' }, [3, 3, 4])).toEqual({ ok: true, value: [3, 4] });
    expect(checkValue({ kind: 'members', settings: { multiple: false } }, [3, 4]).ok).toBe(false);
    expect(checkValue({ kind: 'members' }, [0]).ok).toBe(false);
    expect(checkValue({ kind: 'reference' }, ['i1', 'i1'])).toEqual({ ok: true, value: ['i1'] });
    expect(checkValue({ kind: 'button' }, 'x').ok).toBe(false);
    expect(checkValue({ kind: 'checkbox' }, 'yes').ok).toBe(false);
    expect(checkValue({ kind: 'whatever' }, 'x')).toEqual({ ok: false, message: AttributeMessages.unknownKind });
  });
});

describe('the duplicate name and type rule', () => {
  const existing = [
    { id: 'a1', board_id: 'b', kind: 'date', name: 'Due' },
    { id: 'a2', board_id: 'b', kind: 'text', name: 'Old', deleted_at: '2026-01-01T00:00:00Z' },
    { id: 'a3', board_id: 'other', kind: 'text', name: 'Notes' },
  ];
  it('finds a same-name same-kind attribute on the board, ignoring case and spaces', () => {
    expect(findDuplicateAttribute({ board_id: 'b', kind: 'date', name: ' due ' }, existing)?.id).toBe('a1');
    expect(attributeProblems({ board_id: 'b', kind: 'date', name: 'DUE' }, existing)).toEqual([AttributeMessages.duplicate]);
  });
  it('allows the same name with another kind, itself, trashed ones and other boards', () => {
    expect(findDuplicateAttribute({ board_id: 'b', kind: 'text', name: 'Due' }, existing)).toBeNull();
    expect(findDuplicateAttribute({ id: 'a1', board_id: 'b', kind: 'date', name: 'Due' }, existing)).toBeNull();
    expect(findDuplicateAttribute({ board_id: 'b', kind: 'text', name: 'Old' }, existing)).toBeNull();
    expect(findDuplicateAttribute({ board_id: 'b', kind: 'text', name: 'Notes' }, existing)).toBeNull();
  });
  it('allows one primary attribute per board', () => {
    expect(attributeProblems({ id: 'p2', board_id: 'b', kind: 'primary', name: 'Task' }, [{ id: 'p1', board_id: 'b', kind: 'primary', name: 'Item' }])).toEqual([AttributeMessages.onePrimary]);
  });
});

describe('link schemes (button and attachment addresses)', () => {
  it('accepts http:, https:, mailto: and the app’s own relative addresses only, read as the browser reads an href', () => {
    for (const url of ['https://example.com', 'HTTP://example.com/x', 'mailto:a@example.com', '/api/files/attachments/x.bin', '//cdn.example.com/a']) expect(hasSafeScheme(url), url).toBe(true);
    for (const url of ['javascript:alert(1)', ' JavaScript:alert(1)', 'java\tscript:alert(1)', 'java\nscript:x', 'data:text/html,x', 'vbscript:x', 'file:///etc/passwd', 'blob:https://x/y']) expect(hasSafeScheme(url), url).toBe(false);
  });

  it('refuses a button URL or an attachment with another scheme, with the catalogue message', () => {
    expect(attributeProblems({ kind: 'button', name: 'Go', settings: { url: 'javascript:alert(1)' } }, [])).toEqual([`settings.url: ${AttributeMessages.unsafeUrl}`]);
    expect(attributeProblems({ kind: 'button', name: 'Go', settings: { url: '' } }, [])).toEqual([]);
    // A stored copy from before the rule falls back to no link at all.
    expect(settingsOf('button', { label: 'Go', url: 'javascript:alert(1)' }).url).toBe('');
    const files = { kind: 'attachments' };
    expect(checkValue(files, [{ id: 'a', name: 'a.pdf', size: 1, url: 'javascript:alert(1)' }])).toEqual({ ok: false, message: AttributeMessages.unsafeUrl });
    expect(checkValue(files, [{ id: 'a', name: 'a.pdf', size: 1, url: '/api/files/attachments/a.bin' }]).ok).toBe(true);
  });
});
