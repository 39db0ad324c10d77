import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { EditorContent, useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import Mention from '@tiptap/extension-mention';
import { Placeholder } from '@tiptap/extensions';
import type { SuggestionKeyDownProps, SuggestionProps } from '@tiptap/suggestion';
import { Trans, useLingui } from '@lingui/react/macro';
import { MENTION_ATTRIBUTE } from '../../../schema/comment-html';
import { store } from '../../storage/local-store';
import { Button } from '../../ui/Button';
import { mentionCandidates, type MentionCandidate } from './member-search';

/**
 * The comment box: a TipTap editor (lazy chunk, see CommentsTab) with bold/italic/lists/links from
 * the starter kit and `@` mentions of the workspace's members. A mention is written as
 * `<span data-mention="{userId}">@Name</span>` (schema/comment-html.ts).
 *
 * Keyboard: `@` opens the member list (role listbox), ArrowUp/ArrowDown move, Enter or Tab picks,
 * Escape closes it; Ctrl/Cmd+Enter sends. The box is a textbox named by `label`.
 */

/** A mention as the server keeps it: data-mention carries the user id, the text the name. */
const CairnMention = Mention.extend({
  addAttributes() {
    return {
      id: {
        default: null,
        parseHTML: (element: HTMLElement) => element.getAttribute(MENTION_ATTRIBUTE),
        renderHTML: (attributes: { id?: string | null }) => (attributes.id ? { [MENTION_ATTRIBUTE]: attributes.id } : {}),
      },
      label: {
        default: null,
        parseHTML: (element: HTMLElement) => (element.textContent ?? '').replace(/^@/, ''),
        renderHTML: () => ({}),
      },
    };
  },
  parseHTML() {
    return [{ tag: `span[${MENTION_ATTRIBUTE}]` }];
  },
});

interface MenuState {
  items: MentionCandidate[];
  selected: number;
  rect: DOMRect | null;
  pick: (member: MentionCandidate) => void;
}

export interface CommentComposerProps {
  members: readonly MentionCandidate[];
  /** The accessible name of the box ("Write a comment", "Write a reply", "Edit comment"). */
  label: string;
  placeholder: string;
  submitLabel: string;
  initialHtml?: string;
  /**
   * Where the unsent text is kept (local storage, cleared on logout), so closing the panel or
   * switching tabs loses nothing; removed when sent or cancelled.
   */
  draftKey?: string;
  autoFocus?: boolean;
  /** Saves the html; the box empties when it resolves. A rejection keeps the text. */
  onSubmit(html: string): Promise<void>;
  onCancel?(): void;
}

export default function CommentComposer({ members, label, placeholder, submitLabel, initialHtml, draftKey, autoFocus, onSubmit, onCancel }: CommentComposerProps) {
  const { t } = useLingui();
  const listId = useId();
  const [menu, setMenu] = useState<MenuState | null>(null);
  const [busy, setBusy] = useState(false);
  const [draft] = useState(() => (draftKey ? store.get<string | null>(draftKey, null) : null));
  const [empty, setEmpty] = useState(!(draft ?? initialHtml));
  // The suggestion plugin is built once; it reads the latest members and menu through refs.
  const membersRef = useRef(members);
  membersRef.current = members;
  const menuRef = useRef<MenuState | null>(null);
  menuRef.current = menu;
  const submitRef = useRef<() => void>(() => undefined);

  const extensions = useMemo(
    () => [
      StarterKit.configure({ heading: false, codeBlock: false, horizontalRule: false, link: { openOnClick: false, autolink: true, defaultProtocol: 'https' } }),
      Placeholder.configure({ placeholder }),
      CairnMention.configure({
        renderText: ({ node }) => `@${node.attrs.label ?? node.attrs.id}`,
        renderHTML: ({ node }) => ['span', { [MENTION_ATTRIBUTE]: String(node.attrs.id) }, `@${node.attrs.label ?? node.attrs.id}`],
        suggestion: {
          char: '@',
          items: ({ query }) => mentionCandidates(membersRef.current, query),
          command: ({ editor, range, props }) => {
            const member = props as unknown as MentionCandidate;
            editor
              .chain()
              .focus()
              .insertContentAt(range, [
                { type: 'mention', attrs: { id: String(member.id), label: member.name } },
                { type: 'text', text: ' ' },
              ])
              .run();
          },
          render: () => {
            const show = (props: SuggestionProps<MentionCandidate>) =>
              setMenu((before) => ({
                items: props.items,
                selected: before && before.items[before.selected]?.id !== undefined ? Math.max(0, props.items.findIndex((m) => m.id === before.items[before.selected]!.id)) : 0,
                rect: props.clientRect?.() ?? null,
                pick: (member) => props.command(member as never),
              }));
            return {
              onStart: show,
              onUpdate: show,
              onExit: () => setMenu(null),
              onKeyDown: ({ event }: SuggestionKeyDownProps) => {
                const current = menuRef.current;
                if (!current) return false;
                if (event.key === 'Escape') {
                  setMenu(null);
                  return true;
                }
                if (current.items.length === 0) return false;
                if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
                  const step = event.key === 'ArrowDown' ? 1 : -1;
                  setMenu({ ...current, selected: (current.selected + step + current.items.length) % current.items.length });
                  return true;
                }
                if (event.key === 'Enter' || event.key === 'Tab') {
                  const member = current.items[current.selected];
                  if (member) current.pick(member);
                  return true;
                }
                return false;
              },
            };
          },
        },
      }),
    ],
    [placeholder],
  );

  const editor = useEditor({
    extensions,
    // TipTap's own <style> would break the CSP (style-src 'self'); its rules are in comments.css.
    injectCSS: false,
    content: draft ?? initialHtml ?? '',
    autofocus: autoFocus ? 'end' : false,
    immediatelyRender: true,
    shouldRerenderOnTransaction: false,
    editorProps: {
      attributes: { role: 'textbox', 'aria-multiline': 'true', 'aria-label': label, class: 'comment-editor-input', 'data-testid': 'comment-editor' },
      handleKeyDown: (_view, event) => {
        if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
          submitRef.current();
          return true;
        }
        if (event.key === 'Escape' && onCancel && !menuRef.current) {
          cancelRef.current();
          return true;
        }
        return false;
      },
    },
    onUpdate: ({ editor: e }) => {
      setEmpty(e.isEmpty);
      if (!draftKey) return;
      if (e.isEmpty) store.remove(draftKey);
      else store.set(draftKey, e.getHTML());
    },
  });

  // The view exists only once the editor is mounted ('create' follows the mount).
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    if (!editor) return;
    const onCreate = () => setMounted(true);
    if (editor.isInitialized) setMounted(true);
    editor.on('create', onCreate);
    return () => void editor.off('create', onCreate);
  }, [editor]);

  // The textbox says which member is highlighted while the list is open (combobox pattern).
  useEffect(() => {
    if (!editor || !mounted || editor.isDestroyed) return;
    const dom = editor.view.dom;
    if (menu && menu.items.length) {
      dom.setAttribute('aria-expanded', 'true');
      dom.setAttribute('aria-controls', listId);
      dom.setAttribute('aria-activedescendant', `${listId}-${menu.selected}`);
    } else {
      dom.setAttribute('aria-expanded', 'false');
      dom.removeAttribute('aria-controls');
      dom.removeAttribute('aria-activedescendant');
    }
  }, [editor, mounted, menu, listId]);

  const submit = async () => {
    if (!editor || busy || editor.isEmpty) return;
    const html = editor.getHTML();
    setBusy(true);
    try {
      await onSubmit(html);
      editor.commands.clearContent(true);
      if (draftKey) store.remove(draftKey);
    } finally {
      setBusy(false);
    }
  };
  submitRef.current = () => void submit();
  const cancel = () => {
    if (draftKey) store.remove(draftKey);
    onCancel?.();
  };
  const cancelRef = useRef(cancel);
  cancelRef.current = cancel;

  return (
    <div className="comment-composer" data-testid="comment-composer">
      <EditorContent editor={editor} className="comment-editor" />
      <div className="comment-composer-actions">
        {onCancel && (
          <Button variant="ghost" size="sm" onClick={cancel}>
            <Trans>Cancel</Trans>
          </Button>
        )}
        <Button variant="primary" size="sm" disabled={empty || busy} onClick={() => void submit()} title={t`Ctrl+Enter sends`}>
          {submitLabel}
        </Button>
      </div>
      {menu &&
        createPortal(
          <ul
            id={listId}
            role="listbox"
            aria-label={t`Mention someone`}
            className="mention-menu"
            data-testid="mention-menu"
            style={menu.rect ? { position: 'fixed', top: menu.rect.bottom + 4, left: menu.rect.left } : undefined}
          >
            {menu.items.length === 0 ? (
              <li className="mention-menu-empty" role="presentation">
                <Trans>No member matches</Trans>
              </li>
            ) : (
              menu.items.map((member, index) => (
                <li
                  key={member.id}
                  id={`${listId}-${index}`}
                  role="option"
                  aria-selected={index === menu.selected}
                  // mousedown, not click: the editor must keep its selection.
                  onMouseDown={(e) => {
                    e.preventDefault();
                    menu.pick(member);
                  }}
                >
                  <span className="mention-menu-name">{member.name}</span>
                  {member.email && <span className="mention-menu-email">{member.email}</span>}
                </li>
              ))
            )}
          </ul>,
          document.body,
        )}
    </div>
  );
}
