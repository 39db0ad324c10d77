import { msg } from '@lingui/core/macro';
import type { I18n, MessageDescriptor } from '@lingui/core';
import { api, ApiRequestError } from '../api/client';
import type { BoardJob } from '../../schema/board-jobs';
import { Messages } from '../../schema/messages';
import { CsvImportMessages } from '../../schema/csv-import';
import { ImportMessages, type TrelloBoardLists, type TrelloBoardSummary, type TrelloConfig, type TrelloListsAs } from '../../schema/trello-gitlab-import';

/** The Trello and Gitlab import routes (docs/imports.md) and the texts they answer with, translated. */

export async function trelloConfig(): Promise<TrelloConfig> {
  return (await api.get<{ data: TrelloConfig }>('/api/imports/trello/config')).data;
}

export async function trelloBoards(teamId: number, token: string): Promise<TrelloBoardSummary[]> {
  return (await api.post<{ data: TrelloBoardSummary[] }>(`/api/${teamId}/imports/trello/boards`, { token })).data;
}

export async function trelloBoardLists(teamId: number, trelloBoardId: string, token: string): Promise<TrelloBoardLists> {
  return (await api.post<{ data: TrelloBoardLists }>(`/api/${teamId}/imports/trello/boards/${encodeURIComponent(trelloBoardId)}`, { token })).data;
}

export type TrelloSource = { board: unknown; file_name: string } | { trello_board_id: string; token: string };

export async function startTrelloImport(teamId: number, boardId: string, body: TrelloSource & { folder_id: string; list_ids: string[]; lists_as: TrelloListsAs; include_archived: boolean }): Promise<BoardJob> {
  return (await api.post<{ data: BoardJob }>(`/api/${teamId}/boards/${encodeURIComponent(boardId)}/imports/trello`, body)).data;
}

export type GitlabSource = { content: string; file_name: string } | { url: string; project: string; token: string };

export async function startGitlabImport(teamId: number, boardId: string, body: GitlabSource & { folder_id: string }): Promise<BoardJob> {
  return (await api.post<{ data: BoardJob }>(`/api/${teamId}/boards/${encodeURIComponent(boardId)}/imports/gitlab`, body)).data;
}

/** The Trello token of this tab (from Trello's authorize page), and where to go back after it. */
const TOKEN_KEY = 'cairn.trello.token';
const RETURN_KEY = 'cairn.trello.return';
const session = () => {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
};
export const trelloToken = () => session()?.getItem(TOKEN_KEY) ?? null;
export const setTrelloToken = (token: string | null) => (token ? session()?.setItem(TOKEN_KEY, token) : session()?.removeItem(TOKEN_KEY));
export const rememberTrelloReturn = (path: string) => session()?.setItem(RETURN_KEY, path);
export const takeTrelloReturn = () => {
  const path = session()?.getItem(RETURN_KEY) ?? null;
  session()?.removeItem(RETURN_KEY);
  return path && path.startsWith('/') && !path.startsWith('//') ? path : null;
};

/** The address Trello's authorize page sends the token back to (the extract-trello-token route). */
export const trelloReturnUrl = () => `${window.location.origin}/imports/trello/return-token`;

const known = new Map<string, MessageDescriptor>([
  [ImportMessages.chooseList, msg`Choose at least one list to import.`],
  [ImportMessages.trelloLoading, msg`Trello data loading error`],
  [ImportMessages.notTrello, msg`This file is not a Trello board export (a JSON file from Trello’s “Print and export”).`],
  [ImportMessages.trelloNotConfigured, msg`Trello is not connected on this server: import a Trello export file instead.`],
  [ImportMessages.trelloToken, msg`Trello did not accept the connection. Connect to Trello again.`],
  [ImportMessages.gitlabLoading, msg`Gitlab data loading error`],
  [ImportMessages.notGitlab, msg`This file is not a Gitlab issues export (the CSV export or the issues JSON of the API).`],
  [ImportMessages.gitlabSource, msg`Give a Gitlab export file, or a Gitlab address, project and token.`],
  [ImportMessages.gitlabToken, msg`Gitlab did not accept the token.`],
  [ImportMessages.gitlabProject, msg`Gitlab has no project at that path (or the token may not read it).`],
  [ImportMessages.noItems, msg`There is nothing to import.`],
  [CsvImportMessages.selectOneFolder, msg`Select one folder.`],
]);

/** An import route's refusal in the user's language (known texts translated, the rest as sent). */
export function importErrorText(i18n: I18n, error: unknown): string {
  const raw = error instanceof ApiRequestError ? (error.body?.message ?? error.message) : error instanceof Error ? error.message : String(error);
  const text = raw.startsWith(Messages.validationPrefix) ? raw.slice(Messages.validationPrefix.length) : raw;
  if (known.has(text)) return i18n._(known.get(text)!);
  const parts = text.split(/, (?=[a-z_.0-9]+: |[A-Z])/).map((part) => part.replace(/^[a-z_.0-9]+: /, ''));
  return parts.map((part) => (known.has(part) ? i18n._(known.get(part)!) : part)).join(' ');
}
