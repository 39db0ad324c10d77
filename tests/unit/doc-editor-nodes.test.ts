// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { Editor } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';
import Collaboration from '@tiptap/extension-collaboration';
import { DocTable, tableCommands } from '../../src/boards/docs/table';
import { DocImage } from '../../src/boards/docs/image';
import { ItemEmbedNode as ItemEmbed, embedCandidates } from '../../src/boards/docs/embed-node';

import { DOC_FRAGMENT } from '../../schema/doc-records';

/**
 * The Docs editor's own nodes (decisions 0215–0217) in a real ProseMirror editor bound to Yjs as
 * in the app: a table made and edited in one editor reaches another through a Yjs update; only
 * attachment images survive a paste; an embed keeps the item's id and never its name.
 */

// jsdom lays nothing out; ProseMirror asks for rectangles when it scrolls the caret into view.
const noRects = () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
const noRect = () => ({ top: 0, left: 0, right: 0, bottom: 0, width: 0, height: 0, x: 0, y: 0, toJSON: () => ({}) }) as DOMRect;
for (const proto of [Range.prototype, Element.prototype, Text.prototype as unknown as Element]) {
  (proto as { getClientRects: unknown }).getClientRects ??= noRects;
  (proto as { getBoundingClientRect: unknown }).getBoundingClientRect ??= noRect;
}

const editors: Editor[] = [];
afterEach(() => {
  for (const e of editors.splice(0)) e.destroy();
});

function editorOn(doc: Y.Doc): Editor {
  const element = document.createElement('div');
  document.body.append(element);
  const editor = new Editor({
    element,
    injectCSS: false,
    extensions: [
      StarterKit.configure({ undoRedo: false }),
      Collaboration.configure({ document: doc, field: DOC_FRAGMENT }),
      DocTable,
      DocImage,
      // The card is React (the app's node view); here the node's schema and HTML are what is tested.
      ItemEmbed,
    ],
  });
  editors.push(editor);
  return editor;
}

/** Two Y.Docs that pass every update to each other, as the sync path does. */
function linkedDocs(): [Y.Doc, Y.Doc] {
  const a = new Y.Doc();
  const b = new Y.Doc();
  a.on('update', (u: Uint8Array, origin: unknown) => origin !== 'peer' && Y.applyUpdate(b, u, 'peer'));
  b.on('update', (u: Uint8Array, origin: unknown) => origin !== 'peer' && Y.applyUpdate(a, u, 'peer'));
  return [a, b];
}

describe('Docs editor nodes', () => {
  it('makes a table, types into its cells, adds a row and a column; the other editor shows the same table', () => {
    const [docA, docB] = linkedDocs();
    const a = editorOn(docA);
    const b = editorOn(docB);
    expect(tableCommands.insert(a)).toBe(true);
    a.commands.insertContent('Step');
    expect(a.isActive('table')).toBe(true);
    // Tab moves to the next cell (prosemirror-tables' goToNextCell).
    // (the editor's keydown handling, as a real key press reaches it)
    expect(a.view.someProp('handleKeyDown', (f) => f(a.view, new KeyboardEvent('keydown', { key: 'Tab' })))).toBe(true);
    a.commands.insertContent('Owner');
    expect(tableCommands.addRow(a)).toBe(true);
    expect(tableCommands.addColumn(a)).toBe(true);
    const html = b.getHTML();
    expect(html).toContain('<table class="doc-table">');
    expect(b.view.dom.querySelectorAll('table tr')).toHaveLength(4);
    expect(b.view.dom.querySelectorAll('table th')).toHaveLength(4);
    expect(b.view.dom.querySelectorAll('table tr:first-child th')[0]!.textContent).toBe('Step');
    expect(b.view.dom.querySelectorAll('table tr:first-child th')[1]!.textContent).toBe('Owner');
    // The Yjs body holds the node names the published renderer reads.
    const table = docB.getXmlFragment(DOC_FRAGMENT).toArray().find((n) => n instanceof Y.XmlElement && n.nodeName === 'table') as Y.XmlElement;
    expect((table.get(0) as Y.XmlElement).nodeName).toBe('tableRow');
    expect(((table.get(0) as Y.XmlElement).get(0) as Y.XmlElement).nodeName).toBe('tableHeader');
    expect(tableCommands.deleteTable(a)).toBe(true);
    expect(b.view.dom.querySelector('table')).toBeNull();
  });

  it('keeps only images that are attachments of the item', () => {
    const a = editorOn(new Y.Doc());
    a.commands.setContent('<p>x</p><img src="/api/files/attachments/AbC_12-x.png" alt="chart"><img src="https://tracker.example/p.png"><img src="data:image/png;base64,AAAA"><img src="/api/files/avatars/a.png">');
    const images = a.view.dom.querySelectorAll('img');
    expect(images).toHaveLength(1);
    expect(images[0]!.getAttribute('src')).toBe('/api/files/attachments/AbC_12-x.png');
    expect(images[0]!.getAttribute('alt')).toBe('chart');
    // A synced node with a bad address (another client's doing) is not drawn as an image.
    a.commands.insertContentAt(a.state.doc.content.size, { type: 'docImage', attrs: { src: 'https://tracker.example/p.png' } });
    expect(a.getJSON().content?.filter((n) => n.type === 'docImage')).toHaveLength(2);
    expect(a.view.dom.querySelectorAll('img')).toHaveLength(1);
  });

  it('stores an embed as the item id only; a pasted name is not kept', () => {
    const doc = new Y.Doc();
    const a = editorOn(doc);
    a.commands.setContent('<p>See <span data-item-embed="item_42">Secret launch plan</span> and <span data-item-embed="bad id!">x</span></p>');
    const json = a.getJSON();
    const embeds = (json.content?.[0]?.content ?? []).filter((n) => n.type === 'itemEmbed');
    expect(embeds.map((e) => (e as { attrs?: { id?: unknown } }).attrs?.id)).toEqual(['item_42', null]);
    const stored = doc.getXmlFragment(DOC_FRAGMENT).toString();
    expect(stored).toContain('item_42');
    expect(stored).not.toContain('Secret launch plan');
    expect(a.getText()).not.toContain('Secret');
  });

  it('suggests items to embed by name, names starting with the query first, never the document itself', () => {
    const items = [
      { id: 'a', name: 'Roadmap 2027', deleted_at: null },
      { id: 'b', name: 'Launch roadmap', deleted_at: null },
      { id: 'c', name: 'Road trip', deleted_at: '2026-01-01' },
      { id: 'self', name: 'Roadmap notes', deleted_at: null },
    ];
    expect(embedCandidates(items, 'road', 'self').map((c) => c.id)).toEqual(['a', 'b']);
    expect(embedCandidates(items, '', 'self').map((c) => c.id)).toEqual(['b', 'a']);
  });
});
