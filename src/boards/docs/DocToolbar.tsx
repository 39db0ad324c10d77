import type { Editor } from '@tiptap/react';
import { useLingui } from '@lingui/react/macro';

/**
 * The formatting buttons of a document (the same commands have keyboard shortcuts and
 * markdown-style input rules: "# ", "- ", "[ ] ", "```").
 */
export function DocToolbar({ editor }: { editor: Editor }) {
  const { t } = useLingui();
  const link = () => {
    const url = window.prompt(t`Link address`, String(editor.getAttributes('link').href ?? 'https://'));
    if (url === null) return;
    if (url.trim() === '') editor.chain().focus().unsetLink().run();
    else editor.chain().focus().setLink({ href: url.trim() }).run();
  };
  const buttons: { label: string; text: string; run: () => void }[] = [
    { label: t`Heading 1`, text: 'H1', run: () => editor.chain().focus().toggleHeading({ level: 1 }).run() },
    { label: t`Heading 2`, text: 'H2', run: () => editor.chain().focus().toggleHeading({ level: 2 }).run() },
    { label: t`Bold`, text: 'B', run: () => editor.chain().focus().toggleBold().run() },
    { label: t`Italic`, text: 'I', run: () => editor.chain().focus().toggleItalic().run() },
    { label: t`Bulleted list`, text: '•', run: () => editor.chain().focus().toggleBulletList().run() },
    { label: t`Numbered list`, text: '1.', run: () => editor.chain().focus().toggleOrderedList().run() },
    { label: t`Checklist`, text: '☑', run: () => editor.chain().focus().toggleTaskList().run() },
    { label: t`Code block`, text: '</>', run: () => editor.chain().focus().toggleCodeBlock().run() },
    { label: t`Link`, text: '↗', run: link },
  ];
  return (
    <div className="doc-toolbar" role="toolbar" aria-label={t`Formatting`}>
      {buttons.map((b) => (
        <button key={b.label} type="button" className="doc-toolbar-button" aria-label={b.label} title={b.label} onMouseDown={(e) => e.preventDefault()} onClick={b.run}>
          {/* Glyphs are Latin marks (H1, 1.): kept left-to-right in Arabic too. */}
          <span dir="ltr">{b.text}</span>
        </button>
      ))}
    </div>
  );
}
