import { useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { EditorContent, useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import Collaboration from '@tiptap/extension-collaboration';
import Mention from '@tiptap/extension-mention';
import { TaskItem, TaskList } from '@tiptap/extension-list';
import { Placeholder } from '@tiptap/extensions';
import type { SuggestionKeyDownProps, SuggestionProps } from '@tiptap/suggestion';
import { Trans, useLingui } from '@lingui/react/macro';
import { DOC_FRAGMENT } from '../../../schema/doc-records';
import { MENTION_ATTRIBUTE } from '../../../schema/comment-html';
import { mentionCandidates, type MentionCandidate } from '../comments/member-search';
import { DocToolbar } from './DocToolbar';
import type { DocBody } from './doc-body';

interface MenuState {
  items: MentionCandidate[];
  selected: number;
  rect: DOMRect | null;
  pick: (member: MentionCandidate) => void;
}

/**
 * The rich-text editor of one document: TipTap bound to the body's Y.Doc by the collaboration
 * extension (so TipTap's own history is off: Yjs keeps it), with headings, lists, checklists,
 * code, links and `@` mentions of the workspace's members.
 */
export default function DocEditor({ body, members, readOnly, title }: { body: DocBody; members: readonly MentionCandidate[]; readOnly: boolean; title: string }) {
  const { t } = useLingui();
  const [menu, setMenu] = useState<MenuState | null>(null);
  const membersRef = useRef(members);
  membersRef.current = members;
  const menuRef = useRef<MenuState | null>(null);
  menuRef.current = menu;

  const extensions = useMemo(
    () => [
      StarterKit.configure({ undoRedo: false, link: { openOnClick: false, autolink: true, defaultProtocol: 'https' } }),
      TaskList,
      TaskItem.configure({ nested: true }),
      Placeholder.configure({ placeholder: t`Write something, or type @ to mention someone` }),
      Collaboration.configure({ document: body.doc, field: DOC_FRAGMENT }),
      Mention.extend({
        addAttributes() {
          return {
            id: { default: null, parseHTML: (el: HTMLElement) => el.getAttribute(MENTION_ATTRIBUTE), renderHTML: (a: { id?: string | null }) => (a.id ? { [MENTION_ATTRIBUTE]: a.id } : {}) },
            label: { default: null, renderHTML: () => ({}) },
          };
        },
      }).configure({
        renderText: ({ node }) => `@${node.attrs.label ?? node.attrs.id}`,
        renderHTML: ({ node }) => ['span', { [MENTION_ATTRIBUTE]: String(node.attrs.id), class: 'doc-mention' }, `@${node.attrs.label ?? node.attrs.id}`],
        suggestion: {
          char: '@',
          items: ({ query }) => mentionCandidates(membersRef.current, query),
          command: ({ editor, range, props }) => {
            const member = props as unknown as MentionCandidate;
            editor.chain().focus().insertContentAt(range, [{ type: 'mention', attrs: { id: String(member.id), label: member.name } }, { type: 'text', text: ' ' }]).run();
          },
          render: () => {
            const show = (props: SuggestionProps<MentionCandidate>) => setMenu({ items: props.items, selected: 0, rect: props.clientRect?.() ?? null, pick: (m) => props.command(m as never) });
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
    // One editor per body; the placeholder's language follows the body's lifetime.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [body],
  );

  const editor = useEditor(
    {
      extensions,
      // TipTap's own <style> would break the CSP (style-src 'self'); its rules are in docs.css.
      injectCSS: false,
      editable: !readOnly,
      immediatelyRender: true,
      shouldRerenderOnTransaction: false,
      editorProps: { attributes: { role: 'textbox', 'aria-multiline': 'true', 'aria-label': t`Document ${title}`, class: 'doc-editor-input', 'data-testid': 'doc-editor' } },
    },
    [extensions, readOnly],
  );

  return (
    <div className="doc-editor">
      {!readOnly && editor && <DocToolbar editor={editor} />}
      <EditorContent editor={editor} />
      {menu &&
        createPortal(
          <ul role="listbox" aria-label={t`Mention someone`} className="mention-menu" style={menu.rect ? { position: 'fixed', top: menu.rect.bottom + 4, left: menu.rect.left } : undefined}>
            {menu.items.length === 0 ? (
              <li className="mention-menu-empty" role="presentation">
                <Trans>No member matches</Trans>
              </li>
            ) : (
              menu.items.map((member, index) => (
                <li
                  key={member.id}
                  role="option"
                  aria-selected={index === menu.selected}
                  onMouseDown={(e) => {
                    e.preventDefault();
                    menu.pick(member);
                  }}
                >
                  {member.name}
                </li>
              ))
            )}
          </ul>,
          document.body,
        )}
    </div>
  );
}
