import { EXTERNAL_IMPORT_MAX_ITEMS, ImportMessages, type TrelloListsAs } from '../../schema/trello-gitlab-import';
import { clip, planDate, type ImportPlan, type PlanAttribute, type PlanComment, type PlanItem, type SourcePerson } from './import-plan';

/**
 * A Trello board — the JSON of Trello's "Print and export", or the same shape from its REST API
 * (GET /1/boards/{id} with lists, cards, labels, checklists, members and commentCard actions) —
 * as an import plan (decision 0220, docs/imports.md "Trello"):
 *   list      → a subfolder of the chosen folder, or an option of a "List" label (the user's choice)
 *   card      → an item (archived ones only when asked), in list order then card position
 *   labels    → "Labels" (a multiple label; unnamed Trello labels are named by their colour)
 *   due       → "Due" (date with time, UTC); dueComplete → "Due complete" (checkbox)
 *   members   → "Members" (matched to workspace members); the unmatched → "Trello members" (text)
 *   desc      → "Description" (long text); checklists → "Checklists" (long text, "[x] item" lines)
 *   attachments → "Attachments" (long text, one "name: address" line each)
 *   shortUrl  → "Trello card" (link); commentCard actions → comments, oldest first
 */

interface TrelloLabel { id: string; name?: string | null; color?: string | null }
interface TrelloList { id: string; name?: string; closed?: boolean; pos?: number }
interface TrelloAttachment { id?: string; name?: string | null; url?: string | null }
interface TrelloCard {
  id: string; name?: string; desc?: string; closed?: boolean; idList?: string; pos?: number;
  due?: string | null; dueComplete?: boolean; idLabels?: string[]; idMembers?: string[];
  attachments?: TrelloAttachment[]; shortUrl?: string; url?: string;
}
interface TrelloChecklist { id: string; idCard?: string; name?: string; pos?: number; checkItems?: { name?: string; state?: string; pos?: number }[] }
interface TrelloMember { id: string; fullName?: string; username?: string; email?: string | null }
interface TrelloAction { id?: string; type?: string; date?: string; idMemberCreator?: string; data?: { text?: string; card?: { id?: string } }; memberCreator?: TrelloMember }
export interface TrelloBoard {
  id?: string; name: string; labels?: TrelloLabel[]; lists: TrelloList[]; cards: TrelloCard[];
  checklists?: TrelloChecklist[]; members?: TrelloMember[]; actions?: TrelloAction[];
}

export interface TrelloMapOptions {
  listsAs: TrelloListsAs;
  listIds: string[];
  includeArchived: boolean;
  matchPerson: (person: SourcePerson) => number | null;
}

/** Trello's label colours (any shade) as light backgrounds the label chips read well on. */
export const TRELLO_COLORS: Record<string, string> = {
  green: '#BAF3DB', yellow: '#F8E6A0', orange: '#FEDEC8', red: '#FFD5D2', purple: '#DFD8FD',
  blue: '#CCE0FF', sky: '#C6EDFB', lime: '#D3F1A7', pink: '#FDD0EC', black: '#DCDFE4',
};
const colorOf = (color: string | null | undefined) => TRELLO_COLORS[(color ?? '').replace(/_(light|dark)$/, '')] ?? '#E2E4F0';

/** The board, or a clear refusal when the JSON is not a Trello board. */
export function asTrelloBoard(json: unknown): TrelloBoard {
  const b = json as Partial<TrelloBoard> | null;
  if (!b || typeof b !== 'object' || typeof b.name !== 'string' || !Array.isArray(b.lists) || !Array.isArray(b.cards)) throw new Error(ImportMessages.notTrello);
  if (!b.lists.every((l) => l && typeof l.id === 'string') || !b.cards.every((c) => c && typeof c.id === 'string')) throw new Error(ImportMessages.notTrello);
  return b as TrelloBoard;
}

const byPos = <T extends { pos?: number }>(a: T, b: T) => (Number(a.pos) || 0) - (Number(b.pos) || 0);

export function trelloPlan(board: TrelloBoard, opts: TrelloMapOptions): ImportPlan {
  const chosen = new Set(opts.listIds);
  const lists = [...board.lists].sort(byPos).filter((l) => chosen.has(l.id));
  if (lists.length === 0) throw new Error(ImportMessages.chooseList);
  const listName = (l: TrelloList) => clip(l.name?.trim() || 'List', 255);
  const skipped: ImportPlan['skipped'] = [];

  const cards = lists.flatMap((list) =>
    board.cards
      .filter((c) => c.idList === list.id)
      .filter((c) => {
        if (c.closed && !opts.includeArchived) {
          skipped.push({ message: `“${clip(c.name ?? '', 80)}”: archived card left out` });
          return false;
        }
        return true;
      })
      .sort(byPos),
  );
  if (cards.length > EXTERNAL_IMPORT_MAX_ITEMS) throw new Error(ImportMessages.tooMany(EXTERNAL_IMPORT_MAX_ITEMS));

  const members = new Map((board.members ?? []).map((m) => [m.id, m]));
  const matched = new Map<string, number | null>();
  const memberId = (id: string) => {
    if (!matched.has(id)) {
      const m = members.get(id);
      matched.set(id, m ? opts.matchPerson({ email: m.email, username: m.username, name: m.fullName }) : null);
    }
    return matched.get(id)!;
  };
  const memberName = (id: string) => members.get(id)?.fullName || members.get(id)?.username || id;

  const labels = new Map((board.labels ?? []).map((l) => [l.id, l]));
  const usedLabels = [...new Set(cards.flatMap((c) => c.idLabels ?? []))].filter((id) => labels.has(id));
  const checklists = new Map<string, TrelloChecklist[]>();
  for (const cl of [...(board.checklists ?? [])].sort(byPos)) {
    if (!cl.idCard) continue;
    checklists.set(cl.idCard, [...(checklists.get(cl.idCard) ?? []), cl]);
  }
  const comments = new Map<string, PlanComment[]>();
  // Trello lists actions newest first: comments are kept oldest first.
  for (const action of [...(board.actions ?? [])].reverse()) {
    const cardId = action.data?.card?.id;
    const text = action.data?.text;
    if (action.type !== 'commentCard' || !cardId || !text?.trim()) continue;
    const author = action.memberCreator ?? members.get(action.idMemberCreator ?? '');
    const authorId = author ? opts.matchPerson({ email: author.email, username: author.username, name: author.fullName }) : null;
    comments.set(cardId, [...(comments.get(cardId) ?? []), { text: clip(text, 50_000), author_id: authorId, author_name: author?.fullName || author?.username || 'Trello', at: action.date ?? null }]);
  }

  const attributes: PlanAttribute[] = [];
  const uses = (pick: (c: TrelloCard) => boolean) => cards.some(pick);
  if (opts.listsAs === 'labels') attributes.push({ key: 'list', name: 'List', kind: 'label', multiple: false, options: lists.map((l) => ({ key: l.id, name: listName(l) })) });
  if (usedLabels.length) {
    const taken = new Set<string>();
    const options = usedLabels.map((id) => {
      const label = labels.get(id)!;
      let name = clip(label.name?.trim() || label.color || 'Label', 255);
      // Two Trello labels may share a name with different colours: the options keep both.
      for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${clip(label.name?.trim() || label.color || 'Label', 250)} ${n}`;
      taken.add(name.toLowerCase());
      return { key: id, name, color: colorOf(label.color) };
    });
    attributes.push({ key: 'labels', name: 'Labels', kind: 'label', multiple: true, options: options.slice(0, 200) });
  }
  if (uses((c) => !!c.due)) attributes.push({ key: 'due', name: 'Due', kind: 'date', withTime: true });
  if (uses((c) => c.dueComplete === true)) attributes.push({ key: 'dueComplete', name: 'Due complete', kind: 'checkbox' });
  if (uses((c) => (c.idMembers ?? []).some((id) => memberId(id) !== null))) attributes.push({ key: 'members', name: 'Members', kind: 'members', multiple: true });
  if (uses((c) => (c.idMembers ?? []).some((id) => memberId(id) === null))) attributes.push({ key: 'otherMembers', name: 'Trello members', kind: 'text' });
  if (uses((c) => !!c.desc?.trim())) attributes.push({ key: 'desc', name: 'Description', kind: 'long-text' });
  if (uses((c) => checklists.has(c.id))) attributes.push({ key: 'checklists', name: 'Checklists', kind: 'long-text' });
  if (uses((c) => (c.attachments ?? []).some((a) => a.url))) attributes.push({ key: 'attachments', name: 'Attachments', kind: 'long-text' });
  if (uses((c) => !!(c.shortUrl || c.url))) attributes.push({ key: 'link', name: 'Trello card', kind: 'link' });
  const has = new Set(attributes.map((a) => a.key));
  const optionKeys = new Set(usedLabels);

  const items: PlanItem[] = cards.map((card) => {
    const values: Record<string, unknown> = {};
    if (has.has('list')) values.list = card.idList;
    const cardLabels = (card.idLabels ?? []).filter((id) => optionKeys.has(id));
    if (cardLabels.length) values.labels = cardLabels;
    const due = planDate(card.due, true);
    if (due) values.due = due;
    if (card.dueComplete) values.dueComplete = true;
    const ids = (card.idMembers ?? []).map(memberId).filter((id): id is number => id !== null);
    if (ids.length) values.members = [...new Set(ids)];
    const others = (card.idMembers ?? []).filter((id) => memberId(id) === null).map(memberName);
    if (others.length) values.otherMembers = clip(others.join(', '), 10_000);
    if (card.desc?.trim()) values.desc = clip(card.desc, 100_000);
    const lists = checklists.get(card.id);
    if (lists) values.checklists = clip(lists.map((cl) => [cl.name || 'Checklist', ...[...(cl.checkItems ?? [])].sort(byPos).map((i) => `${i.state === 'complete' ? '[x]' : '[ ]'} ${i.name ?? ''}`)].join('\n')).join('\n\n'), 100_000);
    const files = (card.attachments ?? []).filter((a) => a.url);
    if (files.length) values.attachments = clip(files.map((a) => `${a.name || a.url}: ${a.url}`).join('\n'), 100_000);
    const url = card.shortUrl || card.url;
    if (url) values.link = { url, text: clip(card.name?.trim() || url, 255) };
    return { name: clip(card.name ?? '', 10_000), folder: opts.listsAs === 'folders' ? card.idList! : null, values, comments: comments.get(card.id) ?? [] };
  });

  return {
    source: 'trello',
    title: clip(board.name, 255),
    folders: opts.listsAs === 'folders' ? lists.map((l) => ({ key: l.id, name: listName(l) })) : [],
    attributes,
    items,
    skipped,
  };
}
