import { useRef, useState } from 'react';
import { useEditorState, type Editor } from '@tiptap/react';
import { useLingui } from '@lingui/react/macro';
import { ATTACHMENT_MAX_BYTES } from '../../../schema/attributes';
import { DOC_NODE } from '../../../schema/doc-nodes';
import { useOnline } from '../../connectivity/use-connectivity';
import { translateMessage } from '../../i18n/server-messages';
import { DOC_IMAGE_ACCEPT, uploadDocImage } from './image';
import { tableCommands } from './table';

/** What the toolbar's text insert for embeds types: the editor's `[[` list opens from it. */
const EMBED_TRIGGER = '[[';

/**
 * The formatting buttons of a document (the same commands have keyboard shortcuts and
 * markdown-style input rules: "# ", "- ", "[ ] ", "```", "[[" for an embed). Inside a table the
 * row and column buttons appear.
 */
export function DocToolbar({ editor, teamId, itemId }: { editor: Editor; teamId: number; itemId: string }) {
  const { t } = useLingui();
  const online = useOnline();
  const fileInput = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inTable = useEditorState({ editor, selector: ({ editor: e }) => e.isActive(DOC_NODE.table) });
  const link = () => {
    const url = window.prompt(t`Link address`, String(editor.getAttributes('link').href ?? 'https://'));
    if (url === null) return;
    if (url.trim() === '') editor.chain().focus().unsetLink().run();
    else editor.chain().focus().setLink({ href: url.trim() }).run();
  };
  const upload = async (files: FileList | null) => {
    const file = files?.[0];
    if (fileInput.current) fileInput.current.value = '';
    if (!file) return;
    if (!/^image\/(png|jpeg|gif|webp)$/.test(file.type)) return setError(t`Choose a PNG, JPEG, GIF or WebP image.`);
    const limitMb = ATTACHMENT_MAX_BYTES / (1024 * 1024);
    if (file.size > ATTACHMENT_MAX_BYTES) return setError(t`The file is too large. It must be under ${limitMb} MB.`);
    setBusy(true);
    setError(null);
    try {
      const attachment = await uploadDocImage(teamId, itemId, file);
      if (!(attachment.mime ?? '').startsWith('image/')) return setError(t`Choose a PNG, JPEG, GIF or WebP image.`);
      editor.chain().focus().insertContent({ type: DOC_NODE.image, attrs: { src: attachment.url, alt: attachment.name } }).run();
    } catch (err) {
      setError(translateMessage((err as Error).message));
    } finally {
      setBusy(false);
    }
  };
  const buttons: { label: string; text: string; run: () => void; disabled?: boolean }[] = [
    { label: t`Heading 1`, text: 'H1', run: () => editor.chain().focus().toggleHeading({ level: 1 }).run() },
    { label: t`Heading 2`, text: 'H2', run: () => editor.chain().focus().toggleHeading({ level: 2 }).run() },
    { label: t`Bold`, text: 'B', run: () => editor.chain().focus().toggleBold().run() },
    { label: t`Italic`, text: 'I', run: () => editor.chain().focus().toggleItalic().run() },
    { label: t`Bulleted list`, text: '•', run: () => editor.chain().focus().toggleBulletList().run() },
    { label: t`Numbered list`, text: '1.', run: () => editor.chain().focus().toggleOrderedList().run() },
    { label: t`Checklist`, text: '☑', run: () => editor.chain().focus().toggleTaskList().run() },
    { label: t`Code block`, text: '</>', run: () => editor.chain().focus().toggleCodeBlock().run() },
    { label: t`Link`, text: '↗', run: link },
    { label: t`Table`, text: '▦', run: () => tableCommands.insert(editor) },
    // Uploading needs the server (as for attachments): offline the button is greyed.
    { label: online ? t`Image` : t`Images can be added when you are online`, text: '▨', run: () => fileInput.current?.click(), disabled: !online || busy },
    { label: t`Embed an item`, text: '⧉', run: () => editor.chain().focus().insertContent(EMBED_TRIGGER).run() },
  ];
  const tableButtons: { label: string; text: string; run: () => void; disabled?: boolean }[] = [
    { label: t`Add row`, text: '+≡', run: () => tableCommands.addRow(editor) },
    { label: t`Add column`, text: '+⫴', run: () => tableCommands.addColumn(editor) },
    { label: t`Delete row`, text: '−≡', run: () => tableCommands.deleteRow(editor) },
    { label: t`Delete column`, text: '−⫴', run: () => tableCommands.deleteColumn(editor) },
    { label: t`Delete table`, text: '✕▦', run: () => tableCommands.deleteTable(editor) },
  ];
  return (
    <div className="doc-toolbar" role="toolbar" aria-label={t`Formatting`}>
      {[...buttons, ...(inTable ? tableButtons : [])].map((b) => (
        <button key={b.label} type="button" className="doc-toolbar-button" aria-label={b.label} title={b.label} disabled={b.disabled ?? false} onMouseDown={(e) => e.preventDefault()} onClick={b.run}>
          {/* Glyphs are Latin marks (H1, 1.): kept left-to-right in Arabic too. */}
          <span dir="ltr">{b.text}</span>
        </button>
      ))}
      <input ref={fileInput} type="file" accept={DOC_IMAGE_ACCEPT} hidden data-testid="doc-image-input" onChange={(e) => void upload(e.target.files)} />
      {error && (
        <span role="alert" className="doc-toolbar-error">
          {error}
        </span>
      )}
    </div>
  );
}
