import { api, currentToken } from '../api/client';
import type { BoardJob } from '../../schema/board-jobs';
import type { CsvUploadOptions } from '../../schema/csv-import';

/** The board-jobs API (docs/api/board-jobs.md). */

export async function listJobs(): Promise<BoardJob[]> {
  return (await api.get<{ data: BoardJob[] }>('/api/me/board-jobs')).data;
}

export async function cancelJob(id: string): Promise<BoardJob> {
  return (await api.post<{ data: BoardJob }>(`/api/me/board-jobs/${encodeURIComponent(id)}/cancel`)).data;
}

/**
 * Starts a CSV import as an upload (issue #31): the options, then the decoded text as a UTF-8 file.
 * The server stores the file as it arrives and answers at once; it reads the file in the job.
 */
export async function startCsvImport(teamId: number, boardId: string, options: CsvUploadOptions, text: string): Promise<BoardJob> {
  const form = new FormData();
  form.append('options', JSON.stringify(options));
  form.append('file', new Blob([text], { type: 'text/csv;charset=utf-8' }), options.file_name || 'import.csv');
  return (await api.post<{ data: BoardJob }>(`/api/${teamId}/boards/${encodeURIComponent(boardId)}/imports/csv`, form)).data;
}

/** Starts the PDF of a view as shown, a folder's default table or one item (decision 0225); the tray follows it. */
export async function startPdfExport(teamId: number, boardId: string, which: { view_id: string } | { folder_id: string } | { item_id: string }): Promise<BoardJob> {
  return (await api.post<{ data: BoardJob }>(`/api/${teamId}/boards/${encodeURIComponent(boardId)}/exports/pdf`, which)).data;
}

/** Saves the file a job made (the PDF of an export) under its name. */
export async function downloadJobFile(jobId: string): Promise<void> {
  await saveResponse(`/api/me/board-jobs/${encodeURIComponent(jobId)}/file`, 'export.pdf');
}

/** Downloads a view as CSV (the server streams it; the browser saves it under the view's name). */
export async function downloadViewCsv(teamId: number, boardId: string, which: { viewId: string } | { folderId: string }): Promise<void> {
  const query = 'viewId' in which ? `view_id=${encodeURIComponent(which.viewId)}` : `folder_id=${encodeURIComponent(which.folderId)}`;
  await saveResponse(`/api/${teamId}/boards/${encodeURIComponent(boardId)}/exports/csv?${query}`, 'export.csv');
}

/** Fetches a file with the session's token and lets the browser save it under the name the server gave. */
async function saveResponse(path: string, fallbackName: string): Promise<void> {
  const token = currentToken();
  const response = await fetch(path, {
    headers: token ? { Authorization: `Bearer ${token.access_token}` } : {},
    credentials: 'same-origin',
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: string } | null;
    throw new Error(body?.message ?? response.statusText);
  }
  const blob = await response.blob();
  const name = /filename\*=UTF-8''([^;]+)/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name ? decodeURIComponent(name) : fallbackName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
