import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { EXTERNAL_IMPORT_MAX_BYTES } from '../../schema/trello-gitlab-import';
import { Button } from '../ui/Button';
import { Modal } from '../ui/Modal';
import { toast } from '../ui/toast-store';
import { useBoard } from '../boards/BoardContext';
import type { Folder } from '../boards/store/live';
import { announceJobStarted } from '../board-jobs/jobs-flag';
import { importErrorText, startGitlabImport } from './import-api';
import './imports.css';

/**
 * Gitlab import (issue #16, decision 0220): the project's issues from its export (the issues CSV
 * or the issues JSON of the API), or read from a Gitlab instance with an address, the project's
 * path and a token (used once, never kept). Issues become items of this folder with their state,
 * labels, milestone, assignees, due date and description; a board job does the writing.
 */
export default function GitlabImportDialog({ folder, onClose }: { folder: Folder; onClose: () => void }) {
  const { t, i18n } = useLingui();
  const board = useBoard();
  const [mode, setMode] = useState<'file' | 'api'>('file');
  const [file, setFile] = useState<File | null>(null);
  const [url, setUrl] = useState('');
  const [project, setProject] = useState('');
  const [token, setToken] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);

  async function start() {
    setProblem(null);
    if (mode === 'file' && !file) return setProblem(t`Choose the Gitlab export file.`);
    if (mode === 'file' && file!.size > EXTERNAL_IMPORT_MAX_BYTES) return setProblem(t`The file is too large. It must be under ${EXTERNAL_IMPORT_MAX_BYTES / 1024 / 1024} MB.`);
    if (mode === 'api' && (!url.trim() || !project.trim() || !token.trim())) return setProblem(t`Give a Gitlab export file, or a Gitlab address, project and token.`);
    setStarting(true);
    try {
      const source = mode === 'file' ? { content: await file!.text(), file_name: file!.name } : { url: url.trim(), project: project.trim(), token: token.trim() };
      await startGitlabImport(board.teamId, board.boardId, { ...source, folder_id: folder.id });
      announceJobStarted();
      toast.show(t`The Gitlab import has started.`);
      onClose();
    } catch (error) {
      setProblem(importErrorText(i18n, error));
      setStarting(false);
    }
  }

  const footer = (
    <Button variant="primary" onClick={() => void start()} disabled={starting} data-testid="gitlab-start">
      {starting ? (mode === 'api' ? t`Reading from Gitlab…` : t`Starting…`) : t`Import`}
    </Button>
  );
  return (
    <Modal open onClose={onClose} title={t`Import from Gitlab`} footer={footer} className="gitlab-import">
      <p className="hint">
        <Trans>Issues become items of the folder {folder.name} with their state, labels, milestone, assignees (matched by email, username or name), due date and description.</Trans>
      </p>
      <label className="inline-field">
        <input type="radio" name="gitlab-mode" checked={mode === 'file'} onChange={() => setMode('file')} />
        <Trans>From an export file (issues CSV, or issues JSON)</Trans>
      </label>
      <label className="inline-field">
        <input type="radio" name="gitlab-mode" checked={mode === 'api'} onChange={() => setMode('api')} data-testid="gitlab-mode-api" />
        <Trans>From a Gitlab server</Trans>
      </label>
      {mode === 'file' ? (
        <input type="file" accept=".csv,.json,text/csv,application/json" aria-label={t`Gitlab export file`} data-testid="gitlab-file" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
      ) : (
        <>
          <label className="inline-field">
            {t`Gitlab address`}
            <input type="url" value={url} placeholder="https://gitlab.com" onChange={(e) => setUrl(e.target.value)} data-testid="gitlab-url" />
          </label>
          <label className="inline-field">
            {t`Project (path or id)`}
            <input type="text" value={project} placeholder="group/project" onChange={(e) => setProject(e.target.value)} data-testid="gitlab-project" />
          </label>
          <label className="inline-field">
            {t`Access token (read_api)`}
            <input type="password" value={token} autoComplete="off" onChange={(e) => setToken(e.target.value)} data-testid="gitlab-token" />
          </label>
        </>
      )}
      {problem && (
        <p className="import-problem" role="alert">
          {problem}
        </p>
      )}
    </Modal>
  );
}
