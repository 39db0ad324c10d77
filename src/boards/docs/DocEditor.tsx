import { useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { EditorContent, useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import Collaboration from '@tiptap/extension-collaboration';
import Mention from '@tiptap/extension-mention';
import { TaskItem, TaskList } from '@tiptap/extension-list';
import { Placeholder } from '@tiptap/extensions';
import { Extension } from '@tiptap/core';
import { PluginKey } from '@tiptap/pm/state';
import { yCursorPlugin } from '@tiptap/y-tiptap';
import { Suggestion, type SuggestionKeyDownProps, type SuggestionOptions, type SuggestionProps } from '@tiptap/suggestion';
import { Trans, useLingui } from '@lingui/react/macro';
import { DOC_FRAGMENT } from '../../../schema/doc-records';
import { MENTION_ATTRIBUTE } from '../../../schema/comment-html';
import { DOC_NODE } from '../../../schema/doc-nodes';
import { mentionCandidates, type MentionCandidate } from '../comments/member-search';
import type { Item } from '../store/live';
import { DocToolbar } from './DocToolbar';
import type { DocBody } from './doc-body';
import { ItemEmbed } from './embed';
import { embedCandidates, type Choice } from './embed-node';
import { DocImage } from './image';
import { DocTable } from './table';
import type { DocPresence } from './presence';

interface MenuState {
  kind: 'mention' | 'embed';
  items: Choice[];
  selected: number;
  rect: DOMRect | null;
  pick: (choice: Choice) => void;
}

/** Typing this opens the list of items to embed (the toolbar's button types it too). */
export const EMBED_TRIGGER = '[[';

/**
 * Another editor's caret: a coloured bar whose label is drawn by CSS from `data-name` (so it is
 * no text of the document: not in innerText, copy or find). Colours through the CSSOM (CSP).
 */
function caret(presence: DocPresence, clientId: number): HTMLElement {
  const { name, color } = presence.userOf(clientId);
  const bar = document.createElement('span');
  bar.className = 'doc-caret';
  bar.setAttribute('data-name', name);
  bar.setAttribute('data-testid', 'doc-caret');
  bar.style.setProperty('--caret-color', color);
  return bar;
}

/** Carets and selections of the others in the document (y-tiptap's cursor plugin over the awareness). */
const remoteCarets = (presence: DocPresence) =>
  Extension.create({
    name: 'docRemoteCarets',
    addProseMirrorPlugins: () => [
      yCursorPlugin(presence.awareness, {
        cursorBuilder: (_user: unknown, clientId: number) => caret(presence, clientId),
        selectionBuilder: (_user: unknown, clientId: number) => ({ class: 'doc-remote-selection', style: `background-color: ${presence.userOf(clientId).color}33` }),
      }),
    ],
  });

export default function DocEditor({ body, presence, members, items, itemId, teamId, readOnly, title }: { body: DocBody; presence: DocPresence | null; members: readonly MentionCandidate[]; items: readonly Item[]; itemId: string; teamId: number; readOnly: boolean; title: string }) {
  const { t } = useLingui();
  const [menu, setMenu] = useState<MenuState | null>(null);
  const membersRef = useRef(members);
  membersRef.current = members;
  const itemsRef = useRef(items);
  itemsRef.current = items;
  const menuRef = useRef<MenuState | null>(null);
  menuRef.current = menu;

  /** The menu of one suggestion (mentions, embeds): shown in a portal, driven by the keyboard. */
  const menuRender = (kind: MenuState['kind']): SuggestionOptions<Choice>['render'] => () => {
    const show = (props: SuggestionProps<Choice>) => setMenu({ kind, items: props.items, selected: 0, rect: props.clientRect?.() ?? null, pick: (c) => props.command(c as never) });
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
          const choice = current.items[current.selected];
          if (choice) current.pick(choice);
          return true;
        }
        return false;
      },
    };
  };

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
          items: ({ query }) => mentionCandidates(membersRef.current, query).map((m) => ({ id: String(m.id), label: m.name })),
          command: ({ editor, range, props }) => {
            const member = props as unknown as Choice;
            editor.chain().focus().insertContentAt(range, [{ type: 'mention', attrs: { id: member.id, label: member.label } }, { type: 'text', text: ' ' }]).run();
          },
          render: menuRender('mention'),
        },
      }),
      DocTable,
      DocImage,
      ...(presence ? [remoteCarets(presence)] : []),
      ItemEmbed.extend({
        addProseMirrorPlugins() {
          return [
            Suggestion<Choice>({
              editor: this.editor,
              char: EMBED_TRIGGER,
              allowSpaces: true,
              pluginKey: new PluginKey('itemEmbedSuggestion'),
              items: ({ query }) => embedCandidates(itemsRef.current, query, itemId),
              command: ({ editor, range, props }) => {
                editor.chain().focus().insertContentAt(range, [{ type: DOC_NODE.embed, attrs: { id: props.id } }, { type: 'text', text: ' ' }]).run();
              },
              render: menuRender('embed'),
            }),
          ];
        },
      }),
    ],
    // One editor per body; the placeholder's language follows the body's lifetime.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [body, presence],
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
      {!readOnly && editor && <DocToolbar editor={editor} teamId={teamId} itemId={itemId} />}
      <EditorContent editor={editor} />
      {menu &&
        createPortal(
          <ul role="listbox" aria-label={menu.kind === 'mention' ? t`Mention someone` : t`Embed an item`} className="mention-menu" style={menu.rect ? { position: 'fixed', top: menu.rect.bottom + 4, left: menu.rect.left } : undefined}>
            {menu.items.length === 0 ? (
              <li className="mention-menu-empty" role="presentation">
                {menu.kind === 'mention' ? <Trans>No member matches</Trans> : <Trans>No item matches</Trans>}
              </li>
            ) : (
              menu.items.map((choice, index) => (
                <li
                  key={choice.id}
                  role="option"
                  aria-selected={index === menu.selected}
                  onMouseDown={(e) => {
                    e.preventDefault();
                    menu.pick(choice);
                  }}
                >
                  {choice.label}
                </li>
              ))
            )}
          </ul>,
          document.body,
        )}
    </div>
  );
}
