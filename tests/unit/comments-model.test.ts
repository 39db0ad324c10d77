import { describe, expect, it } from 'vitest';
import { commentPlainText, keepValidMentions, mentionedUserIds } from '../../schema/comment-html';
import { layoutComments, reactionsByComment, summarizeReactions } from '../../src/boards/comments/comment-tree';
import { mentionCandidates } from '../../src/boards/comments/member-search';

describe('mentions in comment html', () => {
  it('reads the mentioned user ids in order, each once', () => {
    const html = '<p>Hi <span data-mention="12">@Ann</span>, <span data-mention="7">@Bo</span> and <span data-mention="12">@Ann</span></p>';
    expect(mentionedUserIds(html)).toEqual([12, 7]);
  });

  it('ignores values that are not user ids, and data-id or text that merely looks like one', () => {
    expect(mentionedUserIds('<span data-mention="0">x</span><span data-mention="abc">y</span><span data-id="5">@5</span> data-mention="9"')).toEqual([]);
  });

  it('is not fooled by attribute-like text inside another attribute', () => {
    const html = '<span title="a data-mention=" class="x">t</span><a href="/x" title="> data-mention=&quot;4&quot;">l</a>';
    expect(mentionedUserIds(html)).toEqual([]);
    expect(keepValidMentions(html)).toBe(html);
  });

  it('drops a data-mention that is not a positive integer and keeps the words', () => {
    expect(keepValidMentions('<span data-mention="3">@A</span><span data-mention="x">@B</span><span data-mention="-1">@C</span>')).toBe('<span data-mention="3">@A</span><span>@B</span><span>@C</span>');
  });

  it('turns comment html into plain words', () => {
    expect(commentPlainText('<p>One &amp; <b>two</b></p><ul><li>three</li></ul><p>a&lt;b&nbsp;c</p>')).toBe('One & two three a<b c');
  });
});

describe('comment layout', () => {
  const c = (id: string, created_at: string, extra: Record<string, unknown> = {}) => ({ id, created_at, parent_id: null as string | null, ...extra });

  it('puts pinned threads first, then threads newest first, replies oldest first under their thread', () => {
    const layout = layoutComments([
      c('a', '2026-01-01T10:00:00Z'),
      c('b', '2026-01-02T10:00:00Z'),
      c('p', '2026-01-01T09:00:00Z', { pinned: true }),
      c('r2', '2026-01-03T10:00:00Z', { parent_id: 'a' }),
      c('r1', '2026-01-02T11:00:00Z', { parent_id: 'a' }),
      c('rr', '2026-01-04T10:00:00Z', { parent_id: 'r1' }),
    ]);
    expect(layout.pinned.map((t) => t.comment.id)).toEqual(['p']);
    expect(layout.threads.map((t) => t.comment.id)).toEqual(['b', 'a']);
    expect(layout.threads[1]!.replies.map((r) => r.id)).toEqual(['r1', 'r2', 'rr']);
  });

  it('shows a comment written here and not yet stamped as the newest, and hides replies whose thread is gone', () => {
    const layout = layoutComments([c('old', '2026-01-01T10:00:00Z'), { id: 'new', parent_id: null }, c('orphan', '2026-01-01T11:00:00Z', { parent_id: 'deleted' }), c('gone', '2026-01-05T00:00:00Z', { deleted_at: '2026-01-06T00:00:00Z' })]);
    expect(layout.threads.map((t) => t.comment.id)).toEqual(['new', 'old']);
  });

  it('survives a reply cycle without hanging', () => {
    const layout = layoutComments([c('x', '2026-01-01T00:00:00Z', { parent_id: 'y' }), c('y', '2026-01-01T00:00:01Z', { parent_id: 'x' })]);
    expect(layout.threads).toEqual([]);
  });
});

describe('reactions', () => {
  const r = (id: string, comment_id: string, reaction: string, user_id: number, created_at: string) => ({ id, comment_id, reaction, user_id, created_at });

  it('groups per emoji in the order first used, counts people once, and knows the viewer’s own', () => {
    const list = [r('1', 'c', '👍', 5, '2026-01-01T00:00:02Z'), r('2', 'c', '🎉', 6, '2026-01-01T00:00:01Z'), r('3', 'c', '👍', 6, '2026-01-01T00:00:03Z'), r('4', 'c', '👍', 5, '2026-01-01T00:00:04Z')];
    expect(summarizeReactions(list, 6)).toEqual([
      { reaction: '🎉', count: 1, userIds: [6], mine: '2' },
      { reaction: '👍', count: 2, userIds: [5, 6], mine: '3' },
    ]);
    expect(summarizeReactions(list, null).every((s) => s.mine === null)).toBe(true);
  });

  it('splits reactions by comment', () => {
    const map = reactionsByComment([r('1', 'a', 'x', 1, ''), r('2', 'b', 'x', 1, ''), r('3', 'a', 'y', 1, '')]);
    expect(map.get('a')!.map((x) => x.id)).toEqual(['1', '3']);
    expect(map.get('b')!.map((x) => x.id)).toEqual(['2']);
  });
});

describe('who the @ menu offers', () => {
  const members = [
    { id: 1, name: 'Zoë Adams', email: 'zoe@example.com' },
    { id: 2, name: 'Adam Smith', email: 'adam@example.com' },
    { id: 3, name: 'Bob Stone', email: 'bstone@example.com' },
    { id: 4, name: 'Ada Pending', email: 'ada@example.com', pending: true },
  ];

  it('puts names that start with the query first, then word starts, and leaves out pending invitations', () => {
    expect(mentionCandidates(members, 'ada').map((m) => m.id)).toEqual([2, 1]);
  });

  it('matches without accents and by e-mail', () => {
    expect(mentionCandidates(members, 'zoe').map((m) => m.id)).toEqual([1]);
    expect(mentionCandidates(members, 'bst').map((m) => m.id)).toEqual([3]);
  });

  it('offers everyone (by name, at most the limit) for an empty query', () => {
    expect(mentionCandidates(members, '', 2).map((m) => m.id)).toEqual([2, 3]);
  });
});
