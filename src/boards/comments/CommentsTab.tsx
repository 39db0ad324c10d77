import { Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { lazyRetry } from '../../ui/lazy-retry';
import { Trans, useLingui } from '@lingui/react/macro';
import type { Member } from '../../api/endpoints';
import { Avatar } from '../../ui/Avatar';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { PopupMenu } from '../../ui/PopupMenu';
import type { MenuItem } from '../../ui/MenuList';
import { confirm } from '../../ui/confirm-store';
import { toast } from '../../ui/toast-store';
import { useBoard } from '../BoardContext';
import type { Item } from '../store/live';
import { CommentCommands } from './comment-commands';
import { layoutComments, reactionsByComment, summarizeReactions, type Thread } from './comment-tree';
import { CommentHtml } from './CommentHtml';
import { useItemComments, type Comment, type Reaction } from './use-comments';
import { exactTime, whenText } from './when';
import './comments.css';

// The editor (TipTap and ProseMirror) is its own chunk, fetched when a box is first shown.
const CommentComposer = lazyRetry(() => import('./CommentComposer'));

/** How long a highlighted comment is kept in view while comments are still arriving. */
const HIGHLIGHT_FOLLOW_MS = 5000;

/** The reactions offered by the picker (any short text is a valid reaction for the server). */
export const REACTIONS = ['👍', '❤️', '😄', '🎉', '👀', '🙏'] as const;

interface Props {
  item: Item;
  /** `?comment={id}`: scrolled to and highlighted. */
  highlightId: string | null;
}

/**
 * The item panel's comments tab: a box to write at the top, then pinned threads and the others
 * newest first, replies under each (comment-tree.ts). Everything reads the local replica and
 * writes through the engine, so it works offline and shows at once.
 */
export default function CommentsTab({ item, highlightId }: Props) {
  const { t } = useLingui();
  const board = useBoard();
  const data = useItemComments(item.id, board.boardId);
  const commands = useMemo(() => new CommentCommands(board.backend, board.teamId, board.boardId), [board.backend, board.teamId, board.boardId]);
  const members = board.info?.members ?? [];
  const layout = useMemo(() => layoutComments(data?.comments ?? []), [data]);
  const reactions = useMemo(() => reactionsByComment(data?.reactions ?? []), [data]);
  const canAdd = board.backend.userId !== null && board.can('ADD_COMMENT', item.folder_id);

  // ?comment={id}: bring it into view once it is rendered (it may arrive with the board's load),
  // and again while more comments arrive in the first seconds (newer ones above push it down);
  // after that the reader's scrolling is left alone.
  const highlightShown = Boolean(highlightId && data?.comments.some((c) => c.id === highlightId));
  const commentCount = data?.comments.length ?? 0;
  const highlightSince = useMemo(() => (highlightId ? Date.now() : 0), [highlightId]);
  const focused = useRef<string | null>(null);
  useEffect(() => {
    if (!highlightId || !highlightShown || Date.now() - highlightSince > HIGHLIGHT_FOLLOW_MS) return;
    const element = document.getElementById(commentElementId(highlightId));
    element?.scrollIntoView({ block: 'center' });
    if (element && focused.current !== highlightId) {
      focused.current = highlightId;
      element.focus({ preventScroll: true });
    }
  }, [highlightId, highlightShown, highlightSince, commentCount]);

  const add = async (html: string) => {
    try {
      await commands.add(item.id, html);
    } catch (error) {
      toast.show(t`The comment could not be saved: ${(error as Error).message}`, { kind: 'error' });
      throw error;
    }
  };

  const threads = [...layout.pinned, ...layout.threads];
  return (
    <section className="comments" data-testid="comments" aria-label={t`Comments`}>
      {canAdd && (
        <Suspense fallback={<div className="comment-composer comment-composer--loading" aria-hidden="true" />}>
          <CommentComposer
            members={members}
            label={t`Write a comment`}
            placeholder={t`Write a comment… Type @ to mention someone`}
            submitLabel={t`Comment`}
            draftKey={draftKey(board.backend.userId, item.id, 'new')}
            onSubmit={add}
          />
        </Suspense>
      )}
      {data && threads.length === 0 && <EmptyState title={t`No comments yet.`} />}
      {layout.pinned.length > 0 && (
        <h3 className="comments-heading">
          <Trans>Pinned</Trans>
        </h3>
      )}
      <ol className="comment-threads">
        {threads.map((thread) => (
          <ThreadView key={thread.comment.id} thread={thread} item={item} reactions={reactions} commands={commands} members={members} highlightId={highlightId} canAdd={canAdd} />
        ))}
      </ol>
    </section>
  );
}

export const commentElementId = (id: string) => `comment-${id}`;

/** Local-storage key of an unsent comment, reply or edit (per user: a shared device keeps them apart). */
const draftKey = (userId: number | null, itemId: string, what: string) => `comments.draft.${userId ?? 'guest'}.${itemId}.${what}`;

interface ThreadProps {
  thread: Thread<Comment>;
  item: Item;
  reactions: Map<string, Reaction[]>;
  commands: CommentCommands;
  members: Member[];
  highlightId: string | null;
  canAdd: boolean;
}

function ThreadView({ thread, item, reactions, commands, members, highlightId, canAdd }: ThreadProps) {
  const { t } = useLingui();
  const [replying, setReplying] = useState(false);
  const common = { item, commands, members, highlightId };
  return (
    <li className="comment-thread">
      <CommentView {...common} comment={thread.comment} reactions={reactions.get(thread.comment.id) ?? []} onReply={canAdd ? () => setReplying(true) : null} />
      {(thread.replies.length > 0 || replying) && (
        <ol className="comment-replies" aria-label={t`Replies`}>
          {thread.replies.map((reply) => (
            <li key={reply.id}>
              <CommentView {...common} comment={reply} reactions={reactions.get(reply.id) ?? []} onReply={canAdd ? () => setReplying(true) : null} />
            </li>
          ))}
          {replying && (
            <li>
              <Suspense fallback={<div className="comment-composer comment-composer--loading" aria-hidden="true" />}>
                <CommentComposer
                  members={members}
                  label={t`Write a reply`}
                  placeholder={t`Write a reply…`}
                  submitLabel={t`Reply`}
                  draftKey={draftKey(commands.userId, item.id, `reply:${thread.comment.id}`)}
                  autoFocus
                  onCancel={() => setReplying(false)}
                  onSubmit={async (html) => {
                    await commands.add(item.id, html, thread.comment.id);
                    setReplying(false);
                  }}
                />
              </Suspense>
            </li>
          )}
        </ol>
      )}
    </li>
  );
}

interface CommentProps {
  comment: Comment;
  item: Item;
  reactions: Reaction[];
  commands: CommentCommands;
  members: Member[];
  highlightId: string | null;
  onReply: (() => void) | null;
}

function CommentView({ comment, item, reactions, commands, members, highlightId, onReply }: CommentProps) {
  const { t, i18n } = useLingui();
  const board = useBoard();
  const [editing, setEditing] = useState(false);
  const viewerId = board.backend.userId;
  const author = members.find((m) => m.id === comment.created_by);
  const authorName = author?.name ?? t`Removed User`;
  const own = viewerId !== null && comment.created_by === viewerId;
  const summaries = summarizeReactions(reactions, viewerId);
  const canReact = viewerId !== null && board.can('ADD_REACTION', item.folder_id);
  const canPin = board.can('PIN_COMMENT', item.folder_id) && !comment.parent_id;
  const canDelete = viewerId !== null && board.can('DELETE_COMMENT', item.folder_id, comment.created_by ?? null);
  const highlighted = highlightId === comment.id;

  const run = (action: () => Promise<void>) =>
    void action().catch((error: Error) => toast.show(t`That did not work: ${error.message}`, { kind: 'error' }));

  const menu: MenuItem[] = [];
  if (own && !board.readOnly) menu.push({ id: 'edit', label: t`Edit`, onSelect: () => setEditing(true) });
  if (canPin) menu.push({ id: 'pin', label: comment.pinned ? t`Unpin` : t`Pin to top`, onSelect: () => run(() => commands.setPinned(comment, !comment.pinned)) });
  if (canDelete)
    menu.push({
      id: 'delete',
      label: t`Delete`,
      danger: true,
      separatorBefore: menu.length > 0,
      onSelect: () =>
        run(async () => {
          const message = comment.parent_id ? t`Delete this reply?` : t`Delete this comment and its replies?`;
          if (await confirm({ message, danger: true })) await commands.remove(comment);
        }),
    });

  return (
    <article
      id={commentElementId(comment.id)}
      className={`comment${highlighted ? ' comment--highlighted' : ''}${comment.pinned ? ' comment--pinned' : ''}`}
      data-comment-id={comment.id}
      data-testid="comment"
      aria-current={highlighted ? 'true' : undefined}
      tabIndex={-1}
      aria-label={t`Comment by ${authorName}`}
    >
      <header className="comment-head">
        <Avatar name={authorName} photoUrl={author?.photo_url} size="sm" preview={false} />
        <span className="comment-author">{authorName}</span>
        <time className="comment-time" dateTime={comment.created_at ?? undefined} title={exactTime(comment.created_at, i18n.locale)}>
          {whenText(comment.created_at, i18n.locale)}
        </time>
        {comment.edited_at && (
          <span className="comment-edited" title={exactTime(comment.edited_at, i18n.locale)}>
            <Trans>(edited)</Trans>
          </span>
        )}
        {comment.pinned && (
          <span className="comment-pinned-mark">
            <Trans>Pinned</Trans>
          </span>
        )}
        {menu.length > 0 && <PopupMenu items={menu} label={t`Comment actions`} className="comment-menu" />}
      </header>
      {editing ? (
        <Suspense fallback={<div className="comment-composer comment-composer--loading" aria-hidden="true" />}>
          <CommentComposer
            members={members}
            label={t`Edit comment`}
            placeholder=""
            submitLabel={t`Save`}
            initialHtml={comment.text.html}
            draftKey={draftKey(commands.userId, item.id, `edit:${comment.id}`)}
            autoFocus
            onCancel={() => setEditing(false)}
            onSubmit={async (html) => {
              await commands.edit(comment, html);
              setEditing(false);
            }}
          />
        </Suspense>
      ) : (
        <CommentHtml html={comment.text.html} />
      )}
      <footer className="comment-foot">
        <ul className="comment-reactions" aria-label={t`Reactions`}>
          {summaries.map((s) => {
            const names = s.userIds.map((id) => members.find((m) => m.id === id)?.name ?? t`Removed User`).join(', ');
            return (
              <li key={s.reaction}>
                <button
                  type="button"
                  className="comment-reaction"
                  aria-pressed={s.mine !== null}
                  disabled={!canReact}
                  title={canReact ? names : `${names} · ${t`You have no permission to add or remove reactions.`}`}
                  aria-label={t`${s.reaction} ${s.count}: ${names}`}
                  onClick={() => run(() => commands.toggleReaction(comment.id, s.reaction, s.mine))}
                >
                  <span aria-hidden="true">{s.reaction}</span> <span aria-hidden="true">{s.count}</span>
                </button>
              </li>
            );
          })}
        </ul>
        {canReact && (
          <PopupMenu
            label={t`Add reaction`}
            align="start"
            items={REACTIONS.map((reaction) => {
              const mine = summaries.find((s) => s.reaction === reaction)?.mine ?? null;
              return { id: reaction, label: reaction, onSelect: () => run(() => commands.toggleReaction(comment.id, reaction, mine)) };
            })}
            renderTrigger={(props) => (
              <button type="button" className="comment-add-reaction" aria-label={t`Add reaction`} {...props}>
                <span aria-hidden="true">☺+</span>
              </button>
            )}
          />
        )}
        {onReply && (
          <Button variant="ghost" size="sm" onClick={onReply}>
            <Trans>Reply</Trans>
          </Button>
        )}
      </footer>
    </article>
  );
}
