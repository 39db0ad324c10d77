import { useMemo, useRef, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { CSV_IMPORT_MAX_BYTES, CSV_IMPORT_MAX_ROWS, IMPORT_KINDS, type ColumnTarget } from '../../schema/csv-import';
import { Button } from '../ui/Button';
import { Modal } from '../ui/Modal';
import { toast } from '../ui/toast-store';
import { showApiError } from '../api/handle-error';
import { useBoard } from '../boards/BoardContext';
import { useKindLabels } from '../boards/parts/kind-labels';
import type { Folder } from '../boards/store/live';
import type { TreeNode } from '../boards/model/tree';
import type { CsvAnalysis } from './analyse';
import { fillableKinds, proposeMapping } from './mapping';
import { startCsvImport } from './jobs-api';
import { announceJobStarted } from './jobs-flag';
import './board-jobs.css';

/**
 * CSV import (issue #16, decision 0161): a file or pasted text, read and parsed in a Web Worker
 * (encoding and delimiter detected), then the mapping screen — each column to the item name, a new
 * attribute of the guessed kind or an existing one — with a preview of the first rows, the target
 * folder and the row limit. Starting it hands the work to a background job; the tray follows it.
 */

type Parsed = { text: string; encoding: string; analysis: CsvAnalysis; fileName: string };

function analyseInWorker(input: { bytes?: ArrayBuffer; text?: string; header: boolean }): Promise<Omit<Parsed, 'fileName'>> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./csv-worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (event: MessageEvent<{ error?: string } & Omit<Parsed, 'fileName'>>) => {
      worker.terminate();
      if (event.data.error) reject(new Error(event.data.error));
      else resolve(event.data);
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(event.message));
    };
    worker.postMessage(input, input.bytes ? [input.bytes] : []);
  });
}

export default function CsvImportDialog({ folder, onClose }: { folder: Folder; onClose: () => void }) {
  const { t } = useLingui();
  const board = useBoard();
  const [parsed, setParsed] = useState<Parsed | null>(null);
  const [reading, setReading] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [pasted, setPasted] = useState('');
  const [header, setHeader] = useState(true);
  const [folderId, setFolderId] = useState(folder.id);
  const [columns, setColumns] = useState<ColumnTarget[]>([]);
  const [starting, setStarting] = useState(false);
  const source = useRef<{ bytes?: ArrayBuffer; text?: string; fileName: string } | null>(null);

  const attributes = useMemo(() => board.attributes.filter((a) => !a.deleted_at && (a.kind === 'primary' || fillableKinds.includes(a.kind))), [board.attributes]);

  async function read(input: { bytes?: ArrayBuffer; text?: string; fileName: string }, withHeader = header) {
    source.current = input;
    setProblem(null);
    const size = input.bytes?.byteLength ?? input.text?.length ?? 0;
    if (size > CSV_IMPORT_MAX_BYTES) {
      setProblem(t`The file is too large. It must be under ${CSV_IMPORT_MAX_BYTES / 1024 / 1024} MB.`);
      return;
    }
    setReading(true);
    try {
      // The worker takes the bytes over; keep a copy to read again when the header switch changes.
      const result = await analyseInWorker({ bytes: input.bytes?.slice(0), text: input.text, header: withHeader });
      if (result.analysis.rowCount === 0) {
        setProblem(t`The file has no rows to import.`);
        return;
      }
      setParsed({ ...result, fileName: input.fileName });
      setColumns(proposeMapping(result.analysis.header, result.analysis.guesses, withHeader ? result.analysis.nameColumn : 0, attributes));
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setReading(false);
    }
  }

  async function onFile(file: File | undefined) {
    if (!file) return;
    await read({ bytes: await file.arrayBuffer(), fileName: file.name });
  }

  const tooMany = parsed !== null && parsed.analysis.rowCount > CSV_IMPORT_MAX_ROWS;
  const names = columns.filter((c) => c.to === 'name').length;

  async function start() {
    if (!parsed || tooMany) return;
    if (names > 1) {
      setProblem(t`Choose one column for the item names.`);
      return;
    }
    setStarting(true);
    try {
      await startCsvImport(
        board.teamId,
        board.boardId,
        { board_id: board.boardId, folder_id: folderId, file_name: parsed.fileName, delimiter: parsed.analysis.delimiter, header, columns, rows: parsed.analysis.rowCount },
        parsed.text,
      );
      announceJobStarted();
      toast.show(t`Import started: ${parsed.analysis.rowCount} rows. You can keep working; its progress shows in the corner.`, { kind: 'info' });
      onClose();
    } catch (error) {
      showApiError(error);
    } finally {
      setStarting(false);
    }
  }

  const footer = parsed ? (
    <>
      <Button variant="ghost" onClick={() => setParsed(null)}>
        <Trans>Choose another file</Trans>
      </Button>
      <Button onClick={() => void start()} disabled={starting || tooMany} data-testid="csv-import-start">
        {starting ? t`Starting…` : t`Import ${parsed.analysis.rowCount} rows`}
      </Button>
    </>
  ) : null;

  return (
    <Modal open onClose={onClose} title={t`Import from CSV`} size="lg" footer={footer} className="csv-import">
      {!parsed && (
        <div className="csv-import-source">
          <label className="csv-import-file">
            <span>
              <Trans>Choose a CSV file</Trans>
            </span>
            <input type="file" accept=".csv,.tsv,.txt,text/csv,text/plain" onChange={(e) => void onFile(e.target.files?.[0])} data-testid="csv-import-file" disabled={reading} />
          </label>
          <label className="csv-import-paste">
            <span>
              <Trans>Or paste the rows here</Trans>
            </span>
            <textarea value={pasted} onChange={(e) => setPasted(e.target.value)} rows={6} spellCheck={false} />
          </label>
          <label className="csv-import-check">
            <input type="checkbox" checked={header} onChange={(e) => setHeader(e.target.checked)} />
            <Trans>The first row holds the column names</Trans>
          </label>
          <Button variant="secondary" disabled={!pasted.trim() || reading} onClick={() => void read({ text: pasted, fileName: t`Pasted rows` })}>
            <Trans>Read the pasted rows</Trans>
          </Button>
          {reading && (
            <p role="status">
              <Trans>Reading the file…</Trans>
            </p>
          )}
        </div>
      )}
      {problem && (
        <p className="csv-import-problem" role="alert">
          {problem}
        </p>
      )}
      {parsed && <MappingScreen parsed={parsed} columns={columns} setColumns={setColumns} folderId={folderId} setFolderId={setFolderId} attributes={attributes} tooMany={tooMany} header={header} onHeader={(on) => {
        setHeader(on);
        if (source.current) void read(source.current, on);
      }} />}
    </Modal>
  );
}

function MappingScreen(props: {
  parsed: Parsed;
  columns: ColumnTarget[];
  setColumns: (c: ColumnTarget[]) => void;
  folderId: string;
  setFolderId: (id: string) => void;
  attributes: { id: string; name: string; kind: string }[];
  tooMany: boolean;
  header: boolean;
  onHeader: (on: boolean) => void;
}) {
  const { t } = useLingui();
  const board = useBoard();
  const kindLabel = useKindLabels();
  const { analysis, encoding, fileName } = props.parsed;
  const folders = useMemo(() => {
    const out: { id: string; name: string; depth: number }[] = [];
    const walk = (node: TreeNode<Folder> | null) => {
      if (!node) return;
      if (board.can('CREATE_ITEM', node.folder.id)) out.push({ id: node.folder.id, name: node.folder.name, depth: node.depth });
      for (const child of node.children) walk(child);
    };
    walk(board.tree.root);
    return out;
  }, [board]);
  const delimiterName = analysis.delimiter === '\t' ? t`tab` : analysis.delimiter === ',' ? t`comma` : analysis.delimiter === ';' ? t`semicolon` : analysis.delimiter;
  const max = CSV_IMPORT_MAX_ROWS;

  const valueOf = (c: ColumnTarget) => (c.to === 'new' ? `new:${c.kind}` : c.to === 'existing' ? `existing:${c.attribute_id}` : c.to);
  const change = (index: number, value: string, name: string, guessFormat: ColumnTarget) => {
    const format = 'date_format' in guessFormat ? guessFormat.date_format : props.parsed.analysis.guesses[index]?.date_format;
    let next: ColumnTarget;
    if (value === 'skip' || value === 'name') next = { to: value };
    else if (value.startsWith('new:')) next = { to: 'new', name: name || `Column ${index + 1}`, kind: value.slice(4) as (typeof IMPORT_KINDS)[number], ...(format ? { date_format: format } : {}) };
    else next = { to: 'existing', attribute_id: value.slice(9), ...(format ? { date_format: format } : {}) };
    props.setColumns(props.columns.map((c, i) => (i === index ? next : c)));
  };

  return (
    <div className="csv-import-map">
      <p className="csv-import-facts">
        <Trans>
          {fileName}: {analysis.rowCount} rows, {analysis.header.length} columns, separated by {delimiterName}, read as {encoding}.
        </Trans>
      </p>
      {props.tooMany && (
        <p className="csv-import-problem" role="alert">
          {t`A CSV import cannot exceed ${max} rows.`}
        </p>
      )}
      <label className="csv-import-field">
        <span>
          <Trans>Import into folder</Trans>
        </span>
        <select value={props.folderId} onChange={(e) => props.setFolderId(e.target.value)} data-testid="csv-import-folder">
          {folders.map((f) => (
            <option key={f.id} value={f.id}>
              {`${'\u00a0\u00a0'.repeat(f.depth)}${f.name}`}
            </option>
          ))}
        </select>
      </label>
      <label className="csv-import-check">
        <input type="checkbox" checked={props.header} onChange={(e) => props.onHeader(e.target.checked)} />
        <Trans>The first row holds the column names</Trans>
      </label>
      <table className="csv-import-columns">
        <thead>
          <tr>
            <th scope="col">
              <Trans>Column</Trans>
            </th>
            <th scope="col">
              <Trans>Becomes</Trans>
            </th>
            <th scope="col">
              <Trans>First values</Trans>
            </th>
          </tr>
        </thead>
        <tbody>
          {analysis.header.map((name, i) => {
            const guess = analysis.guesses[i];
            const target = props.columns[i] ?? { to: 'skip' };
            return (
              <tr key={i}>
                <th scope="row">{name}</th>
                <td>
                  <select aria-label={t`What column ${name} becomes`} value={valueOf(target)} onChange={(e) => change(i, e.target.value, name, target)} data-testid={`csv-map-${i}`}>
                    <option value="skip">{t`Skip this column`}</option>
                    <option value="name">{t`Item name`}</option>
                    <optgroup label={t`New attribute`}>
                      {IMPORT_KINDS.map((kind) => (
                        <option key={kind} value={`new:${kind}`}>
                          {kind === guess?.kind ? t`New ${kindLabel(kind)} (suggested)` : t`New ${kindLabel(kind)}`}
                        </option>
                      ))}
                    </optgroup>
                    {props.attributes.length > 0 && (
                      <optgroup label={t`Existing attribute`}>
                        {props.attributes.map((a) => (
                          <option key={a.id} value={a.kind === 'primary' ? 'name' : `existing:${a.id}`} disabled={a.kind === 'primary'}>
                            {`${a.name} (${kindLabel(a.kind)})`}
                          </option>
                        ))}
                      </optgroup>
                    )}
                  </select>
                  {target.to === 'new' && target.kind === 'label' && guess?.options && (
                    <span className="csv-import-hint">{t`${guess.options.length} labels: ${guess.options.slice(0, 6).join(', ')}`}</span>
                  )}
                </td>
                <td className="csv-import-sample">{analysis.preview.map((row) => row[i] ?? '').filter(Boolean).slice(0, 3).join(' · ')}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <h3 className="csv-import-subhead">
        <Trans>Preview of the first rows</Trans>
      </h3>
      <div className="csv-import-preview" role="region" aria-label={t`Preview of the first rows`} tabIndex={0}>
        <table>
          <thead>
            <tr>
              {analysis.header.map((h, i) => (
                <th key={i} scope="col">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {analysis.preview.map((row, r) => (
              <tr key={r}>
                {analysis.header.map((_, i) => (
                  <td key={i}>{row[i] ?? ''}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
