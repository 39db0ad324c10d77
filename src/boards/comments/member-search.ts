/**
 * Who the `@` menu offers (pure, for tests): workspace members whose name or e-mail contains what
 * was typed after the @, names that start with it first, at most `limit`. Pending invitations are
 * left out: they cannot read the item yet.
 */

export interface MentionCandidate {
  id: number;
  name: string;
  email?: string | null;
  pending?: boolean | null;
}

const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLocaleLowerCase();

export function mentionCandidates<M extends MentionCandidate>(members: readonly M[], query: string, limit = 8): M[] {
  const q = fold(query.trim());
  const scored: { member: M; score: number }[] = [];
  for (const member of members) {
    if (member.pending) continue;
    const name = fold(member.name ?? '');
    const email = fold(member.email ?? '');
    let score: number;
    if (!q) score = 2;
    else if (name.startsWith(q)) score = 0;
    else if (name.split(/\s+/).some((word) => word.startsWith(q))) score = 1;
    else if (name.includes(q) || email.startsWith(q)) score = 2;
    else continue;
    scored.push({ member, score });
  }
  scored.sort((a, b) => a.score - b.score || a.member.name.localeCompare(b.member.name));
  return scored.slice(0, limit).map((s) => s.member);
}
