/**
 * What a Trello or Gitlab import writes, worked out from the source before the job starts
 * (decision 0220): the subfolders, the new attributes (with their options) and the items with
 * their values and comments. Values name options by their key; people are already matched to
 * workspace members (user ids). The plan is the job's payload; the job writes it in batches.
 */

export interface PlanOption {
  key: string;
  name: string;
  color?: string;
  /** A status option that marks an item done. */
  done?: boolean;
}

export type PlanKind = 'text' | 'long-text' | 'date' | 'label' | 'status' | 'members' | 'link' | 'checkbox';

export interface PlanAttribute {
  key: string;
  name: string;
  kind: PlanKind;
  multiple?: boolean;
  withTime?: boolean;
  options?: PlanOption[];
}

export interface PlanComment {
  text: string;
  /** The workspace member who wrote it, when matched; else the importer writes it in their name. */
  author_id: number | null;
  author_name: string;
  at: string | null;
}

export interface PlanItem {
  name: string;
  /** A folder key of the plan, or null for the folder chosen on the screen. */
  folder: string | null;
  /** By attribute key: text, an ISO date, option key(s), user ids, {url, text}, a boolean. */
  values: Record<string, unknown>;
  comments: PlanComment[];
}

export interface ImportPlan {
  source: 'trello' | 'gitlab';
  title: string;
  folders: { key: string; name: string }[];
  attributes: PlanAttribute[];
  items: PlanItem[];
  /** What was left out and why (shown with the job's problems). */
  skipped: { row?: number; message: string }[];
}

/** A person of the source: whatever it tells of them. */
export interface SourcePerson {
  email?: string | null;
  username?: string | null;
  name?: string | null;
}

export interface WorkspacePerson {
  id: number;
  email: string;
  name: string;
}

/**
 * Matches source people to workspace members: by email first (case ignored), then by the
 * username being the local part of a member's email, then by the same full name when only one
 * member has it. Unmatched people stay names in text.
 */
export function personMatcher(members: WorkspacePerson[]): (person: SourcePerson) => number | null {
  const byEmail = new Map<string, number>();
  const byLocal = new Map<string, number | null>();
  const byName = new Map<string, number | null>();
  const keep = (map: Map<string, number | null>, key: string, id: number) => map.set(key, map.has(key) && map.get(key) !== id ? null : id);
  for (const m of members) {
    const email = m.email.trim().toLowerCase();
    byEmail.set(email, m.id);
    keep(byLocal, email.split('@')[0]!, m.id);
    if (m.name.trim()) keep(byName, m.name.trim().toLowerCase(), m.id);
  }
  return (person) => {
    const email = person.email?.trim().toLowerCase();
    if (email && byEmail.has(email)) return byEmail.get(email)!;
    const username = person.username?.trim().toLowerCase();
    if (username && byLocal.get(username)) return byLocal.get(username)!;
    const name = person.name?.trim().toLowerCase();
    if (name && byName.get(name)) return byName.get(name)!;
    return null;
  };
}

/** Keeps a name within the record limits. */
export const clip = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

/** A date the attributes take: `YYYY-MM-DD`, or `YYYY-MM-DDTHH:mm` (UTC) when the source has a time. */
export function planDate(text: string | null | undefined, withTime: boolean): string | null {
  if (!text) return null;
  const plain = /^(\d{4}-\d{2}-\d{2})$/.exec(text.trim());
  if (plain) return plain[1]!;
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) return null;
  const iso = date.toISOString();
  return withTime ? iso.slice(0, 16) : iso.slice(0, 10);
}
