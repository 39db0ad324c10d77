import { EXTERNAL_IMPORT_MAX_ITEMS, ImportMessages } from '../../schema/trello-gitlab-import';
import { parseCsv } from '../board-jobs/csv-parse';
import { clip, planDate, type ImportPlan, type PlanAttribute, type PlanItem, type SourcePerson } from './import-plan';

/**
 * Gitlab issues as an import plan (decision 0220, docs/imports.md "Gitlab"). Two sources of one
 * shape: the issues JSON of the REST API (GET /projects/:id/issues, every page) and the issues
 * CSV export (its documented columns, found by header name). Mapping:
 *   title → the item name; description → "Description" (long text)
 *   state → "State" (status: Open, Closed (done))
 *   labels → "Labels" (multiple label); milestone → "Milestone" (label)
 *   assignees → "Assignees" (matched to workspace members by email, username or name);
 *               the unmatched → "Gitlab assignees" (text)
 *   due_date → "Due date"; web_url and iid → "Gitlab issue" (link "#iid")
 */

export interface GitlabIssue {
  iid: number | string | null;
  title: string;
  description: string;
  state: 'open' | 'closed';
  labels: string[];
  milestone: string | null;
  assignees: SourcePerson[];
  due_date: string | null;
  web_url: string | null;
}

type Json = Record<string, unknown>;
const text = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** Issues of the REST API's JSON (an array of issue objects). */
export function gitlabIssuesFromJson(json: unknown): GitlabIssue[] {
  if (!Array.isArray(json) || !json.every((i) => i && typeof i === 'object' && typeof (i as Json).title === 'string' && ('iid' in (i as Json) || 'id' in (i as Json)))) throw new Error(ImportMessages.notGitlab);
  return (json as Json[]).map((issue) => {
    const people = [...(Array.isArray(issue.assignees) ? issue.assignees : []), ...(!Array.isArray(issue.assignees) && issue.assignee ? [issue.assignee] : [])] as Json[];
    const milestone = issue.milestone as Json | null | undefined;
    return {
      iid: (issue.iid ?? issue.id) as number,
      title: text(issue.title),
      description: text(issue.description),
      state: issue.state === 'closed' ? 'closed' : 'open',
      // `labels` are names, or objects with `with_labels_details=true`.
      labels: (Array.isArray(issue.labels) ? issue.labels : []).map((l) => (typeof l === 'string' ? l : text((l as Json)?.name))).filter(Boolean),
      milestone: milestone && typeof milestone === 'object' ? text(milestone.title) || null : null,
      assignees: people.map((p) => ({ email: text(p.public_email ?? p.email) || null, username: text(p.username) || null, name: text(p.name) || null })),
      due_date: text(issue.due_date) || null,
      web_url: text(issue.web_url) || null,
    };
  });
}

const CSV_REQUIRED = ['Title', 'State'];
/** Issues of the CSV export ("Export as CSV" of a project's issue list). */
export function gitlabIssuesFromCsv(csv: string): GitlabIssue[] {
  const parsed = parseCsv(csv, { delimiter: ',', header: true });
  const col = new Map(parsed.header.map((h, i) => [h.trim().toLowerCase(), i]));
  if (!CSV_REQUIRED.every((h) => col.has(h.toLowerCase()))) throw new Error(ImportMessages.notGitlab);
  const cell = (row: string[], name: string) => (col.has(name.toLowerCase()) ? (row[col.get(name.toLowerCase())!] ?? '').trim() : '');
  const list = (value: string) => value.split(',').map((s) => s.trim()).filter(Boolean);
  return parsed.rows
    .filter((row) => row.some((c) => c.trim()))
    .map((row) => {
      const names = list(cell(row, 'Assignee'));
      const usernames = list(cell(row, 'Assignee Username'));
      const count = Math.max(names.length, usernames.length);
      return {
        iid: cell(row, 'Issue ID') || null,
        title: cell(row, 'Title'),
        description: cell(row, 'Description'),
        state: /^closed$/i.test(cell(row, 'State')) ? 'closed' : 'open',
        labels: list(cell(row, 'Labels')),
        milestone: cell(row, 'Milestone') || null,
        assignees: Array.from({ length: count }, (_, i) => ({ name: names[i] ?? null, username: usernames[i] ?? null })),
        due_date: cell(row, 'Due Date') || null,
        web_url: cell(row, 'URL') || null,
      };
    });
}

/** The export file's text as issues: JSON when it reads as JSON, else the CSV export. */
export function gitlabIssuesFromFile(content: string): GitlabIssue[] {
  const body = content.charCodeAt(0) === 0xfeff ? content.slice(1) : content;
  if (/^\s*[[{]/.test(body)) {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw new Error(ImportMessages.notGitlab);
    }
    return gitlabIssuesFromJson(json);
  }
  return gitlabIssuesFromCsv(body);
}

const LABEL_COLORS = ['#E2E4F0', '#FDE2E1', '#FFF1C2', '#D8F5E1', '#D9ECFF', '#EBDDFB', '#FFE0F0', '#DDF4F4'];

export function gitlabPlan(issues: GitlabIssue[], opts: { title: string; matchPerson: (p: SourcePerson) => number | null }): ImportPlan {
  if (issues.length === 0) throw new Error(ImportMessages.noItems);
  if (issues.length > EXTERNAL_IMPORT_MAX_ITEMS) throw new Error(ImportMessages.tooMany(EXTERNAL_IMPORT_MAX_ITEMS));
  const distinct = (values: string[]) => {
    const seen = new Map<string, string>();
    for (const v of values) if (!seen.has(v.toLowerCase())) seen.set(v.toLowerCase(), v);
    return [...seen.values()];
  };
  const labelNames = distinct(issues.flatMap((i) => i.labels)).slice(0, 200);
  const milestones = distinct(issues.flatMap((i) => (i.milestone ? [i.milestone] : []))).slice(0, 200);
  const skipped: ImportPlan['skipped'] = [];
  if (distinct(issues.flatMap((i) => i.labels)).length > 200) skipped.push({ message: 'only the first 200 labels became options' });
  const matched = issues.map((i) => i.assignees.map((p) => ({ p, id: opts.matchPerson(p) })));

  const attributes: PlanAttribute[] = [
    { key: 'state', name: 'State', kind: 'status', options: [{ key: 'open', name: 'Open', color: '#D9ECFF' }, { key: 'closed', name: 'Closed', color: '#D8F5E1', done: true }] },
  ];
  if (labelNames.length) attributes.push({ key: 'labels', name: 'Labels', kind: 'label', multiple: true, options: labelNames.map((n, i) => ({ key: n.toLowerCase(), name: clip(n, 255), color: LABEL_COLORS[i % LABEL_COLORS.length] })) });
  if (milestones.length) attributes.push({ key: 'milestone', name: 'Milestone', kind: 'label', multiple: false, options: milestones.map((n, i) => ({ key: n.toLowerCase(), name: clip(n, 255), color: LABEL_COLORS[(i + 4) % LABEL_COLORS.length] })) });
  if (matched.some((m) => m.some((x) => x.id !== null))) attributes.push({ key: 'assignees', name: 'Assignees', kind: 'members', multiple: true });
  if (matched.some((m) => m.some((x) => x.id === null))) attributes.push({ key: 'otherAssignees', name: 'Gitlab assignees', kind: 'text' });
  if (issues.some((i) => i.due_date)) attributes.push({ key: 'due', name: 'Due date', kind: 'date', withTime: false });
  if (issues.some((i) => i.description.trim())) attributes.push({ key: 'desc', name: 'Description', kind: 'long-text' });
  if (issues.some((i) => i.web_url)) attributes.push({ key: 'link', name: 'Gitlab issue', kind: 'link' });
  const labelKeys = new Set(labelNames.map((n) => n.toLowerCase()));

  const items: PlanItem[] = issues.map((issue, n) => {
    const values: Record<string, unknown> = { state: issue.state };
    const labels = [...new Set(issue.labels.map((l) => l.toLowerCase()).filter((l) => labelKeys.has(l)))];
    if (labels.length) values.labels = labels;
    if (issue.milestone) values.milestone = issue.milestone.toLowerCase();
    const ids = matched[n]!.flatMap((x) => (x.id === null ? [] : [x.id]));
    if (ids.length) values.assignees = [...new Set(ids)];
    const others = matched[n]!.filter((x) => x.id === null).map((x) => x.p.name || x.p.username || x.p.email || '').filter(Boolean);
    if (others.length) values.otherAssignees = clip(others.join(', '), 10_000);
    const due = planDate(issue.due_date, false);
    if (due) values.due = due;
    else if (issue.due_date) skipped.push({ row: n + 1, message: `due date “${clip(issue.due_date, 40)}” is not a date` });
    if (issue.description.trim()) values.desc = clip(issue.description, 100_000);
    if (issue.web_url) values.link = { url: issue.web_url, text: issue.iid !== null && issue.iid !== '' ? `#${issue.iid}` : clip(issue.title, 255) };
    return { name: clip(issue.title, 10_000), folder: null, values, comments: [] };
  });
  return { source: 'gitlab', title: clip(opts.title, 255), folders: [], attributes, items, skipped };
}
