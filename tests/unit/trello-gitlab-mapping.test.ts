import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { asTrelloBoard, trelloPlan } from '../../server/imports/trello-map';
import { gitlabIssuesFromCsv, gitlabIssuesFromFile, gitlabIssuesFromJson, gitlabPlan } from '../../server/imports/gitlab-map';
import { gitlabBase, nextPage } from '../../server/imports/gitlab-api';
import { personMatcher, planDate } from '../../server/imports/import-plan';
import { commentHtml } from '../../server/imports/plan-job';
import { trelloListsOf } from '../../schema/trello-gitlab-import';

/** The Trello and Gitlab mappings (decision 0220, docs/imports.md) on the committed fixtures. */

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');
const trello = JSON.parse(fixture('trello/board.json'));
const L = (n: number) => `65a1f0c2e4b0a1b2c3d4e70${n}`;
const people = personMatcher([
  { id: 7, email: 'ada@example.com', name: 'Ada Lovelace' },
  { id: 8, email: 'gracehopper@example.com', name: 'Grace Hopper' },
  { id: 9, email: 'x@example.com', name: 'Twin' },
  { id: 10, email: 'y@example.com', name: 'Twin' },
]);

describe('Trello mapping', () => {
  it('lists the export’s lists in order with their open cards', () => {
    expect(trelloListsOf(trello)).toEqual({
      id: '65a1f0c2e4b0a1b2c3d4e5f0',
      name: 'Website relaunch',
      lists: [
        { id: L(1), name: 'To do', closed: false, cards: 2 },
        { id: L(2), name: 'Doing', closed: false, cards: 1 },
        { id: L(3), name: 'Done', closed: false, cards: 1 },
        { id: L(4), name: 'Old ideas', closed: true, cards: 1 },
      ],
    });
    expect(trelloListsOf({ hello: 'world' })).toBeNull();
  });

  it('maps lists to folders, cards to items with labels, due dates, checklists, members, attachments and comments', () => {
    const plan = trelloPlan(asTrelloBoard(trello), { listsAs: 'folders', listIds: [L(1), L(2), L(3)], includeArchived: false, matchPerson: people });
    expect(plan.folders).toEqual([{ key: L(1), name: 'To do' }, { key: L(2), name: 'Doing' }, { key: L(3), name: 'Done' }]);
    expect(plan.attributes.map((a) => `${a.name}:${a.kind}`)).toEqual(['Labels:label', 'Due:date', 'Due complete:checkbox', 'Members:members', 'Description:long-text', 'Checklists:long-text', 'Attachments:long-text', 'Trello card:link']);
    expect(plan.attributes[0]!.options!.map((o) => [o.name, o.color])).toEqual([['Bug', '#FFD5D2'], ['purple', '#DFD8FD'], ['Design', '#CCE0FF'], ['Ready', '#BAF3DB']]);
    // Cards by position within their list, lists in board order; the archived card is left out and said so.
    expect(plan.items.map((i) => i.name)).toEqual(['Fix the broken contact form', 'Write the copy for the home page', 'New logo', 'Launch checklist']);
    expect(plan.skipped).toEqual([{ message: '“Old banner (archived)”: archived card left out' }]);
    const copy = plan.items[1]!;
    expect(copy.folder).toBe(L(1));
    expect(copy.values).toEqual({
      labels: ['65a1f0c2e4b0a1b2c3d4e603'],
      due: '2026-12-01T15:00',
      members: [7],
      desc: 'Short and friendly.\n\nSee the brief.',
      checklists: 'Sections\n[x] Hero\n[ ] Pricing',
      attachments: 'brief.pdf: https://trello.com/1/cards/65a1f0c2e4b0a1b2c3d4e801/attachments/65a1f0c2e4b0a1b2c3d4eb01/download/brief.pdf',
      link: { url: 'https://trello.com/c/Qw1Er2Ty', text: 'Write the copy for the home page' },
    });
    // Comments oldest first; Grace is matched by her username (the local part of her email).
    expect(copy.comments).toEqual([
      { text: 'First draft is in the brief.\nPlease read it.', author_id: 7, author_name: 'Ada Lovelace', at: '2026-11-20T10:00:00.000Z' },
      { text: 'Looks good <b>to me</b>', author_id: 8, author_name: 'Grace Hopper', at: '2026-11-21T11:00:00.000Z' },
    ]);
    expect(plan.items[2]!.values).toMatchObject({ dueComplete: true, members: [7, 8], checklists: 'Formats\n[x] SVG', attachments: 'Moodboard: https://www.figma.com/file/abc123/moodboard' });
  });

  it('maps lists to a List label instead, takes archived cards when asked, and refuses no list', () => {
    const plan = trelloPlan(asTrelloBoard(trello), { listsAs: 'labels', listIds: [L(3), L(4)], includeArchived: true, matchPerson: () => null });
    expect(plan.folders).toEqual([]);
    expect(plan.attributes[0]).toEqual({ key: 'list', name: 'List', kind: 'label', multiple: false, options: [{ key: L(3), name: 'Done' }, { key: L(4), name: 'Old ideas' }] });
    expect(plan.items.map((i) => [i.name, i.folder, i.values.list])).toEqual([['Launch checklist', null, L(3)], ['Old banner (archived)', null, L(3)], ['Dark mode?', null, L(4)]]);
    expect(() => trelloPlan(asTrelloBoard(trello), { listsAs: 'labels', listIds: ['nope'], includeArchived: false, matchPerson: () => null })).toThrow('choose at least one list to import');
    expect(() => asTrelloBoard({ name: 'x' })).toThrow(/not a Trello board export/);
  });

  it('keeps unmatched members as names', () => {
    const plan = trelloPlan(asTrelloBoard(trello), { listsAs: 'folders', listIds: [L(2)], includeArchived: false, matchPerson: () => null });
    expect(plan.attributes.map((a) => a.name)).toContain('Trello members');
    expect(plan.items[0]!.values.otherMembers).toBe('Ada Lovelace, Grace Hopper');
  });
});

describe('Gitlab mapping', () => {
  const expected = [
    { iid: 1, title: 'Login page shows a blank screen on Safari', state: 'closed', labels: ['bug', 'frontend'], milestone: 'v2.0', due_date: '2026-10-04', web_url: 'https://gitlab.example.com/acme/shop/-/issues/1' },
    { iid: 2, title: 'Add a dark theme', state: 'open', labels: ['feature', 'frontend'], milestone: null, due_date: null },
    { iid: 3, title: 'Checkout total ignores the discount code', state: 'open', labels: ['bug', 'backend', 'priority::high'], milestone: 'v2.0', due_date: '2026-12-01' },
  ];

  it('reads the issues JSON of the API and the CSV export alike', () => {
    const json = gitlabIssuesFromJson(JSON.parse(fixture('gitlab/issues.json')));
    const csv = gitlabIssuesFromCsv(fixture('gitlab/issues.csv'));
    expect(json).toMatchObject(expected);
    expect(csv).toMatchObject(expected.map((e) => ({ ...e, iid: String(e.iid) })));
    expect(json[1]!.assignees).toEqual([{ email: null, username: 'grace', name: 'Grace Hopper' }, { email: null, username: 'linus', name: 'Linus Example' }]);
    expect(csv[1]!.assignees).toEqual([{ name: 'Grace Hopper', username: 'grace' }, { name: 'Linus Example', username: 'linus' }]);
    expect(csv[0]!.description).toBe(json[0]!.description);
    expect(gitlabIssuesFromFile(fixture('gitlab/issues.json'))).toHaveLength(3);
    expect(() => gitlabIssuesFromFile('Name,Age\nA,1\n')).toThrow(/not a Gitlab issues export/);
    expect(() => gitlabIssuesFromFile('{"not": "issues"}')).toThrow(/not a Gitlab issues export/);
  });

  it('maps state, labels, milestone, assignees, due date, description and the issue link', () => {
    const plan = gitlabPlan(gitlabIssuesFromFile(fixture('gitlab/issues.csv')), { title: 'issues.csv', matchPerson: people });
    expect(plan.attributes.map((a) => `${a.name}:${a.kind}`)).toEqual(['State:status', 'Labels:label', 'Milestone:label', 'Assignees:members', 'Gitlab assignees:text', 'Due date:date', 'Description:long-text', 'Gitlab issue:link']);
    expect(plan.attributes[1]!.options!.map((o) => o.name)).toEqual(['bug', 'frontend', 'feature', 'backend', 'priority::high']);
    expect(plan.attributes[0]!.options).toEqual([{ key: 'open', name: 'Open', color: '#D9ECFF' }, { key: 'closed', name: 'Closed', color: '#D8F5E1', done: true }]);
    expect(plan.items[0]).toMatchObject({ name: 'Login page shows a blank screen on Safari', values: { state: 'closed', labels: ['bug', 'frontend'], milestone: 'v2.0', assignees: [7], due: '2026-10-04', link: { url: 'https://gitlab.example.com/acme/shop/-/issues/1', text: '#1' } } });
    expect(plan.items[1]!.values).toMatchObject({ state: 'open', assignees: [8], otherAssignees: 'Linus Example' });
    expect(plan.items[2]!.values.assignees).toBeUndefined();
    expect(() => gitlabPlan([], { title: 'x', matchPerson: people })).toThrow('There is nothing to import.');
  });
});

describe('import helpers', () => {
  it('matches people by email, username, then a name only one member has', () => {
    expect(people({ email: 'ADA@example.com' })).toBe(7);
    expect(people({ username: 'gracehopper' })).toBe(8);
    expect(people({ name: 'ada lovelace' })).toBe(7);
    expect(people({ name: 'Twin' })).toBeNull();
    expect(people({ username: 'nobody', name: 'Nobody' })).toBeNull();
  });
  it('writes dates as the attributes take them', () => {
    expect(planDate('2026-12-01T15:00:00.000Z', true)).toBe('2026-12-01T15:00');
    expect(planDate('2026-12-01T15:00:00.000Z', false)).toBe('2026-12-01');
    expect(planDate('2026-12-01', true)).toBe('2026-12-01');
    expect(planDate('soon', false)).toBeNull();
  });
  it('writes comments as escaped paragraphs with the unmatched author in front', () => {
    expect(commentHtml({ text: 'Looks good <b>to me</b>\nok\n\nbye', author_id: null, author_name: 'Grace Hopper', at: '2026-11-21T11:00:00.000Z' })).toBe('<p><em>Grace Hopper, 2026-11-21</em></p><p>Looks good &lt;b&gt;to me&lt;/b&gt;<br>ok</p><p>bye</p>');
  });
  it('follows Gitlab’s X-Next-Page, then a Link rel="next"', () => {
    expect(nextPage(new Headers({ 'x-next-page': '3' }), 'https://g.example/api/v4/projects/1/issues?page=2&per_page=100')).toBe('https://g.example/api/v4/projects/1/issues?page=3&per_page=100');
    expect(nextPage(new Headers({ 'x-next-page': '', link: '<https://g.example/next?cursor=abc>; rel="next", <https://g.example/first>; rel="first"' }), 'https://g.example/x')).toBe('https://g.example/next?cursor=abc');
    expect(nextPage(new Headers({ 'x-next-page': '' }), 'https://g.example/x')).toBeNull();
  });
  it('keeps only the scheme, host and port of a Gitlab address (N4: no path, query or # to steer the request)', () => {
    expect(gitlabBase('http://127.0.0.1:47555/internal/admin?secret=1#')).toBe('http://127.0.0.1:47555');
    expect(gitlabBase('https://gitlab.example.com/api/v4/')).toBe('https://gitlab.example.com');
    expect(() => gitlabBase('file:///etc/passwd')).toThrow();
    expect(() => gitlabBase('https://user:pw@gitlab.example.com')).toThrow();
  });
  // The address rule itself: tests/server/outbound-ssrf.test.ts.
});
