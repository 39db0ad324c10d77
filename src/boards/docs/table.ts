import { Extension, Node, mergeAttributes, type Editor } from '@tiptap/core';
import { TextSelection, type Command } from '@tiptap/pm/state';
import { addColumnAfter, addRowAfter, deleteColumn, deleteRow, deleteTable, goToNextCell, isInTable, tableEditing } from '@tiptap/pm/tables';
import { DOC_NODE } from '../../../schema/doc-nodes';

/**
 * Tables in documents (decision 0215). TipTap's own table package has no release on the 3.34
 * line the editor uses (its newest pins its peers to 3.32), so the four nodes are declared here
 * and the editing behaviour — cell selection, Tab between cells, keeping tables rectangular, row
 * and column commands — is prosemirror-tables, which `@tiptap/pm` (3.34) ships as
 * `@tiptap/pm/tables`. No column resizing: widths follow the text.
 */

/** The `tableRole` prosemirror-tables finds each node type by. */
const ROLES: Record<string, string> = { [DOC_NODE.table]: 'table', [DOC_NODE.row]: 'row', [DOC_NODE.cell]: 'cell', [DOC_NODE.header]: 'header_cell' };

const span = (name: 'colspan' | 'rowspan') => ({
  default: 1,
  parseHTML: (element: HTMLElement) => Math.max(1, Math.min(50, Number(element.getAttribute(name)) || 1)),
  renderHTML: (attributes: Record<string, unknown>) => (Number(attributes[name]) > 1 ? { [name]: attributes[name] } : {}),
});

/** Cell attributes prosemirror-tables reads (colwidth stays null: no resizing). */
const cellAttributes = () => ({ colspan: span('colspan'), rowspan: span('rowspan'), colwidth: { default: null, rendered: false } });

const Table = Node.create({
  name: DOC_NODE.table,
  group: 'block',
  content: `${DOC_NODE.row}+`,
  isolating: true,
  extendNodeSchema(extension) {
    // Called for every node type of the schema: each table node gets its role.
    const role = ROLES[extension.name];
    return role ? { tableRole: role } : {};
  },
  parseHTML: () => [{ tag: 'table' }],
  renderHTML: ({ HTMLAttributes }) => ['div', { class: 'doc-table-wrap' }, ['table', mergeAttributes(HTMLAttributes, { class: 'doc-table' }), ['tbody', 0]]],
  addProseMirrorPlugins: () => [tableEditing({ allowTableNodeSelection: false })],
  addKeyboardShortcuts() {
    const run = (command: Command) => () => (isInTable(this.editor.state) ? command(this.editor.state, this.editor.view.dispatch) : false);
    return {
      Tab: run(goToNextCell(1)),
      'Shift-Tab': run(goToNextCell(-1)),
    };
  },
});

const TableRow = Node.create({
  name: DOC_NODE.row,
  content: `(${DOC_NODE.cell} | ${DOC_NODE.header})*`,
  parseHTML: () => [{ tag: 'tr' }],
  renderHTML: ({ HTMLAttributes }) => ['tr', HTMLAttributes, 0],
});

const TableCell = Node.create({
  name: DOC_NODE.cell,
  content: 'block+',
  isolating: true,
  addAttributes: cellAttributes,
  parseHTML: () => [{ tag: 'td' }],
  renderHTML: ({ HTMLAttributes }) => ['td', HTMLAttributes, 0],
});

const TableHeader = Node.create({
  name: DOC_NODE.header,
  content: 'block+',
  isolating: true,
  addAttributes: cellAttributes,
  parseHTML: () => [{ tag: 'th' }],
  renderHTML: ({ HTMLAttributes }) => ['th', HTMLAttributes, 0],
});

/** The four table nodes and their editing plugin. */
export const DocTable = Extension.create({
  name: 'docTable',
  addExtensions: () => [Table, TableRow, TableHeader, TableCell],
});

/** A new table: a header row and `rows` body rows of `columns` empty cells. */
export function tableContent(rows = 2, columns = 3) {
  const cell = (type: string) => ({ type, content: [{ type: 'paragraph' }] });
  const row = (type: string) => ({ type: DOC_NODE.row, content: Array.from({ length: columns }, () => cell(type)) });
  return { type: DOC_NODE.table, content: [row(DOC_NODE.header), ...Array.from({ length: rows }, () => row(DOC_NODE.cell))] };
}

export const tableCommands = {
  insert: (editor: Editor) => {
    if (!editor.chain().focus().insertContent(tableContent()).run()) return false;
    // The insert leaves the caret after the table: put it in the new table's first cell.
    const { state } = editor;
    let table = -1;
    state.doc.descendants((node, pos) => {
      if (pos >= state.selection.from) return false;
      if (node.type.name === DOC_NODE.table) table = pos;
      return true;
    });
    if (table >= 0) editor.view.dispatch(state.tr.setSelection(TextSelection.create(state.doc, table + 4)));
    return true;
  },
  addRow: (editor: Editor) => runCommand(editor, addRowAfter),
  addColumn: (editor: Editor) => runCommand(editor, addColumnAfter),
  deleteRow: (editor: Editor) => runCommand(editor, deleteRow),
  deleteColumn: (editor: Editor) => runCommand(editor, deleteColumn),
  deleteTable: (editor: Editor) => runCommand(editor, deleteTable),
};

function runCommand(editor: Editor, command: Command): boolean {
  editor.view.focus();
  return command(editor.state, editor.view.dispatch);
}
