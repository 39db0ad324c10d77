import { useCallback, useEffect, useRef, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { isFinishedJob, type BoardJob } from '../../schema/board-jobs';
import { pathFor } from '../../schema/routes';
import { Button } from '../ui/Button';
import { showApiError } from '../api/handle-error';
import { cancelJob, downloadJobFile, listJobs } from './jobs-api';
import { JOB_STARTED_EVENT, setWatchingJobs } from './jobs-flag';
import './board-jobs.css';

/**
 * The progress tray of background board jobs (decision 0160): bottom corner of every screen while
 * the user has a job running or one that ended unseen. It asks the server once a second while a job
 * runs, so the progress survives navigation and reload (the jobs live on the server); a finished job
 * says what it did (items, skipped rows and why) or why it failed, until dismissed.
 */

const POLL_MS = 1000;
const DISMISSED_KEY = 'cairn.boardJobs.dismissed';

function dismissedIds(): Set<string> {
  try {
    return new Set(JSON.parse(localStorage.getItem(DISMISSED_KEY) ?? '[]') as string[]);
  } catch {
    return new Set();
  }
}

export default function JobsTray() {
  const { t } = useLingui();
  const [jobs, setJobs] = useState<BoardJob[]>([]);
  const [dismissed, setDismissed] = useState(dismissedIds);
  const [open, setOpen] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const poll = useCallback(async () => {
    clearTimeout(timer.current);
    let next: BoardJob[];
    try {
      next = await listJobs();
    } catch {
      timer.current = setTimeout(() => void poll(), POLL_MS * 5);
      return;
    }
    setJobs(next);
    const running = next.some((j) => !isFinishedJob(j.state));
    const unseen = next.some((j) => isFinishedJob(j.state) && !dismissedIds().has(j.id));
    if (running) timer.current = setTimeout(() => void poll(), POLL_MS);
    else if (!unseen) setWatchingJobs(false);
  }, []);

  useEffect(() => {
    void poll();
    const again = () => void poll();
    window.addEventListener(JOB_STARTED_EVENT, again);
    return () => {
      clearTimeout(timer.current);
      window.removeEventListener(JOB_STARTED_EVENT, again);
    };
  }, [poll]);

  const dismiss = (id: string) => {
    const next = new Set(dismissed).add(id);
    setDismissed(next);
    try {
      localStorage.setItem(DISMISSED_KEY, JSON.stringify([...next].slice(-50)));
    } catch {
      // nothing to keep it in
    }
    if (!jobs.some((j) => !next.has(j.id) && (!isFinishedJob(j.state) || !next.has(j.id)))) setWatchingJobs(false);
  };

  const shown = jobs.filter((j) => !dismissed.has(j.id));
  if (shown.length === 0) return null;
  return (
    <section className="jobs-tray" aria-label={t`Background jobs`} data-testid="jobs-tray">
      {shown.map((job) => (
        <JobCard key={job.id} job={job} expanded={open === job.id} onToggle={() => setOpen(open === job.id ? null : job.id)} onDismiss={() => dismiss(job.id)} onCancel={async () => {
          try {
            await cancelJob(job.id);
          } catch (error) {
            showApiError(error);
          }
          void poll();
        }} />
      ))}
    </section>
  );
}

function JobCard({ job, expanded, onToggle, onDismiss, onCancel }: { job: BoardJob; expanded: boolean; onToggle: () => void; onDismiss: () => void; onCancel: () => void }) {
  const { t } = useLingui();
  const finished = isFinishedJob(job.state);
  const percent = job.total > 0 ? Math.min(100, Math.round((job.done / job.total) * 100)) : 0;
  const result = (job.result ?? {}) as { items?: number; skipped?: number; board_id?: string; folder_id?: string };
  // Words per kind of job (decision 0225): an import writes rows, a duplicate copies items, a move moves them, an export draws a PDF.
  const kind = jobKindOf(job.kind);
  const running: Record<JobKind, string> = {
    import: job.phase === 'writing' ? t`Writing rows` : job.phase === 'parsing' ? t`Reading the file` : t`Preparing`,
    duplicate: job.phase === 'writing' ? t`Copying items` : t`Copying the structure`,
    move: job.phase === 'writing' ? t`Moving items` : t`Preparing the move`,
    pdf: job.phase === 'rendering' ? t`Drawing the PDF` : t`Reading the view`,
    other: t`Working`,
  };
  const place = job.place;
  const phases: Record<string, string> = {
    // Kept waiting by the limits on heavy work (one import per workspace, a few jobs at a time).
    queued: job.phase === 'waiting' && place ? t`Waiting for other jobs; number ${place} in line` : t`Waiting to start`,
    cancelling: job.error ? t`Failed; removing what it wrote` : t`Cancelling; removing what it wrote`,
    done: t`Done`,
    failed: t`Failed`,
    cancelled: t`Cancelled`,
    running: running[kind],
  };
  const phase = phases[job.state] ?? job.phase;
  const fallbackTitles: Record<JobKind, string> = { import: t`Import`, duplicate: t`Duplicate`, move: t`Move`, pdf: t`PDF export`, other: t`Job` };
  const title = job.title || fallbackTitles[kind];
  const items = result.items ?? 0;
  const skipped = result.skipped ?? 0;
  const done = job.done;
  const total = job.total;
  const problems = job.error_count;
  const figures: Record<JobKind, string> = {
    import: t`${done} of ${total} rows`,
    duplicate: t`${done} of ${total} items copied`,
    move: t`${done} of ${total} items moved`,
    pdf: t`${done} of ${total} items drawn`,
    other: t`${done} of ${total}`,
  };
  const doneText: Record<JobKind, string> = {
    import: skipped ? t`${items} items imported; ${skipped} rows skipped.` : t`${items} items imported.`,
    duplicate: t`The copy is ready with ${items} items.`,
    move: t`The board was moved with ${items} items.`,
    pdf: t`The PDF is ready.`,
    other: t`Done.`,
  };
  return (
    <article className={`jobs-card is-${job.state}`} aria-live="polite" data-testid="job-card" data-state={job.state}>
      <header className="jobs-card-head">
        <strong className="jobs-card-title">{title}</strong>
        <span className="jobs-card-phase">{phase}</span>
      </header>
      {!finished && (
        <>
          <progress max={100} value={percent} aria-label={t`${title}: ${percent}%`} />
          <p className="jobs-card-figures">{figures[kind]}</p>
        </>
      )}
      {job.state === 'done' && <p>{doneText[kind]}</p>}
      {job.state === 'failed' && <p role="alert">{t`It failed and nothing it wrote was kept: ${job.error ?? ''}`}</p>}
      {job.state === 'cancelled' && <p>{t`Cancelled; nothing it wrote was kept.`}</p>}
      {problems > 0 && (
        <button type="button" className="jobs-card-link" aria-expanded={expanded} onClick={onToggle}>
          {t`${problems} problems`}
        </button>
      )}
      {expanded && (
        <ul className="jobs-card-problems">
          {job.errors.map((p, i) => (
            <li key={i}>{p.column ? t`Row ${p.row ?? '?'}, ${p.column}: ${p.message}` : t`Row ${p.row ?? '?'}: ${p.message}`}</li>
          ))}
          {job.error_count > job.errors.length && <li>{t`…and ${job.error_count - job.errors.length} more.`}</li>}
        </ul>
      )}
      <footer className="jobs-card-actions">
        {!finished && job.state !== 'cancelling' && (
          <Button variant="ghost" size="sm" onClick={onCancel} data-testid="job-cancel">
            <Trans>Cancel</Trans>
          </Button>
        )}
        {job.state === 'done' && kind === 'pdf' && (
          <Button variant="secondary" size="sm" data-testid="job-download" onClick={() => void downloadJobFile(job.id).catch(showApiError)}>
            <Trans>Download PDF</Trans>
          </Button>
        )}
        {job.state === 'done' && kind !== 'pdf' && result.board_id && (
          <a className="jobs-card-link" href={pathFor('folder', { rootId: result.board_id, folderId: result.folder_id ?? result.board_id })}>
            <Trans>Open the board</Trans>
          </a>
        )}
        {finished && (
          <Button variant="ghost" size="sm" onClick={onDismiss}>
            <Trans>Dismiss</Trans>
          </Button>
        )}
      </footer>
    </article>
  );
}

type JobKind = 'import' | 'duplicate' | 'move' | 'pdf' | 'other';

/** The tray's family of a job kind (import.csv, import.trello… are imports). */
export function jobKindOf(kind: string): JobKind {
  if (kind.startsWith('import.')) return 'import';
  if (kind === 'board.duplicate' || kind === 'folder.duplicate') return 'duplicate';
  if (kind === 'board.move' || kind === 'folder.move') return 'move';
  if (kind === 'export.pdf') return 'pdf';
  return 'other';
}
