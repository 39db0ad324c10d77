import { ImportMessages, type TrelloBoardSummary, type TrelloConfig } from '../../schema/trello-gitlab-import';
import { ApiError } from '../http/errors';
import { outboundFetch, type AddressRule } from '../outbound';

/**
 * Trello's REST API, for the OAuth-token path of the Trello import (decision 0220). Open only when
 * the server has a Trello API key (`TRELLO_API_KEY`; `TRELLO_API_URL` and `TRELLO_AUTHORIZE_URL`
 * point elsewhere for tests). The member's token comes from Trello's authorize page (it returns
 * it in the URL fragment to /imports/trello/return-token) and is sent by the app with each call;
 * the server never stores it.
 */

export function trelloSettings(env: NodeJS.ProcessEnv = process.env) {
  const key = env.TRELLO_API_KEY?.trim() || null;
  return {
    key,
    api: (env.TRELLO_API_URL?.trim() || 'https://api.trello.com').replace(/\/+$/, ''),
    authorize: env.TRELLO_AUTHORIZE_URL?.trim() || 'https://trello.com/1/authorize',
  };
}

export function trelloConfig(appName: string): TrelloConfig {
  const s = trelloSettings();
  if (!s.key) return { enabled: false, authorize_url: null };
  const q = new URLSearchParams({ expiration: '1day', name: appName, scope: 'read', response_type: 'token', callback_method: 'fragment', key: s.key });
  return { enabled: true, authorize_url: `${s.authorize}?${q}` };
}

async function trelloGet(rule: AddressRule, path: string, token: string, query: Record<string, string> = {}): Promise<unknown> {
  const s = trelloSettings();
  if (!s.key) throw new ApiError(409, ImportMessages.trelloNotConfigured, 'conflict');
  const url = `${s.api}${path}?${new URLSearchParams({ ...query, key: s.key, token })}`;
  let res: Response;
  try {
    res = await outboundFetch(rule, url, { headers: { accept: 'application/json' }, timeoutMs: 60_000, maxBytes: 64 * 1024 * 1024 });
  } catch {
    throw new ApiError(502, ImportMessages.trelloLoading, 'bad_gateway');
  }
  if (res.status === 401 || res.status === 403) throw new ApiError(422, ImportMessages.trelloToken, 'validation');
  if (res.status === 404) throw new ApiError(404, ImportMessages.trelloLoading, 'not_found');
  if (!res.ok) throw new ApiError(502, ImportMessages.trelloLoading, 'bad_gateway');
  try {
    return await res.json();
  } catch {
    throw new ApiError(502, ImportMessages.trelloLoading, 'bad_gateway');
  }
}

/** The member's boards (GET /1/members/me/boards), open ones first. */
export async function trelloBoards(rule: AddressRule, token: string): Promise<TrelloBoardSummary[]> {
  const boards = await trelloGet(rule, '/1/members/me/boards', token, { fields: 'name,url,closed' });
  if (!Array.isArray(boards)) throw new ApiError(502, ImportMessages.trelloLoading, 'bad_gateway');
  return (boards as TrelloBoardSummary[])
    .filter((b) => b && typeof b.id === 'string')
    .map((b) => ({ id: b.id, name: String(b.name ?? b.id), url: typeof b.url === 'string' ? b.url : undefined, closed: b.closed === true }))
    .sort((a, b) => Number(a.closed) - Number(b.closed));
}

/** Trello's limit of actions per request. */
const ACTIONS_PAGE = 1000;

/**
 * A board with everything the import maps, in the shape of Trello's JSON export: GET /1/boards/{id}
 * with its lists, cards (with attachments), labels, checklists, members and comment actions; more
 * comments than one page are read with GET /1/boards/{id}/actions?before=.
 */
export async function trelloBoard(rule: AddressRule, token: string, boardId: string): Promise<unknown> {
  const id = encodeURIComponent(boardId);
  const board = (await trelloGet(rule, `/1/boards/${id}`, token, {
    fields: 'name,desc,url',
    lists: 'all',
    cards: 'all',
    card_attachments: 'true',
    labels: 'all',
    checklists: 'all',
    members: 'all',
    member_fields: 'fullName,username,email',
    actions: 'commentCard',
    actions_limit: String(ACTIONS_PAGE),
    action_memberCreator_fields: 'fullName,username',
  })) as { actions?: { id: string }[] } | null;
  if (!board || typeof board !== 'object') throw new ApiError(502, ImportMessages.trelloLoading, 'bad_gateway');
  const actions = Array.isArray(board.actions) ? [...board.actions] : [];
  for (let page = actions; page.length === ACTIONS_PAGE && actions.length < 100 * ACTIONS_PAGE; ) {
    const next = await trelloGet(rule, `/1/boards/${id}/actions`, token, { filter: 'commentCard', limit: String(ACTIONS_PAGE), before: page[page.length - 1]!.id, memberCreator_fields: 'fullName,username' });
    page = Array.isArray(next) ? (next as { id: string }[]) : [];
    actions.push(...page);
  }
  return { ...board, actions };
}
