import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { nanoid } from 'nanoid';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { ManualClock, type Clock } from '../../sync-worker/clock';
import { openUserDb, type UserDb } from '../../sync-worker/db';
import { Emitter, type EngineEvents, type EventName } from '../../sync-worker/events';
import { HttpClient, type FetchLike } from '../../sync-worker/http';
import { SyncEngine } from '../../sync-worker/engine';
import type { SyncRecord, TokenRecord } from '../../sync-worker/types';

/**
 * Engine tests run the real engine on fake-indexeddb (one IDBFactory per simulated device)
 * against the real server over real HTTP. The only things in between are pass-through
 * transports that count, record or cut requests the way a network would.
 */

export interface World {
  server: TestServer;
  url: string;
  owner: { user: { id: number }; token: string; tokens: TokenRecord };
  teamId: number;
  boardId: string;
  folderId: string;
  attributeId: string;
  close(): Promise<void>;
}

/** A server, a workspace and a board; `server` to build it on a server made by the caller. */
export async function createWorld(given?: TestServer): Promise<World> {
  const server = given ?? (await createTestServer());
  const url = await server.listen();
  const owner = await createUserWithToken(server.ctx, { name: 'Engine Owner' });
  const team = await api(server.app, 'POST', '/api/teams', { token: owner.token, body: { name: 'Engine team' } });
  if (team.statusCode !== 201) throw new Error(`team: ${team.statusCode} ${team.body}`);
  const teamId = team.json().data.id as number;
  const boardId = nanoid();
  const board = await api(server.app, 'PUT', `/api/${teamId}/folders/${boardId}`, {
    token: owner.token,
    body: { id: boardId, board_id: boardId, parent_id: null, name: 'Board', row_version: 1 },
  });
  if (board.statusCode !== 200) throw new Error(`board: ${board.statusCode} ${board.body}`);
  const attributeId = nanoid();
  const attr = await api(server.app, 'PUT', `/api/${teamId}/attributes/${attributeId}`, {
    token: owner.token,
    body: { id: attributeId, board_id: boardId, folder_id: boardId, name: 'Status', kind: 'label', row_version: 1 },
  });
  if (attr.statusCode !== 200) throw new Error(`attribute: ${attr.statusCode} ${attr.body}`);
  return {
    server,
    url,
    owner: owner as World['owner'],
    teamId,
    boardId,
    folderId: boardId,
    attributeId,
    close: () => server.close(),
  };
}

/** Adds another signed-in member to the world's workspace. */
export async function addMember(world: World, role: 'admin' | 'full-member' = 'admin') {
  const member = await createUserWithToken(world.server.ctx);
  await world.server.ctx.db
    .insertInto('team_members')
    .values({ team_id: world.teamId, user_id: member.user.id, role, verified_at: new Date(), invited_by: world.owner.user.id, created_at: new Date() })
    .execute();
  return member as World['owner'];
}

export interface Wire {
  calls: { method: string; url: string; headers: Record<string, string>; body: unknown }[];
  /** When set, requests fail like a dead network (nothing reaches the server). */
  down: boolean;
  fetch: FetchLike;
}

/** Real fetch that records what goes out and can be cut like a network cable. */
export function wire(): Wire {
  const w: Wire = {
    calls: [],
    down: false,
    fetch: async (input, init) => {
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((v, k) => (headers[k] = v));
      w.calls.push({ method: String(init.method), url: input, headers, body: init.body ? JSON.parse(String(init.body)) : undefined });
      if (w.down) throw new TypeError('fetch failed (network down)');
      return fetch(input, init);
    },
  };
  return w;
}

export interface Client {
  engine: SyncEngine;
  http: HttpClient;
  db: UserDb;
  events: Emitter;
  seen: { event: EventName; payload: unknown }[];
  of<K extends EventName>(name: K): EngineEvents[K][];
  clock: Clock;
  local(collection: string, id: string): Promise<SyncRecord | undefined>;
  close(): void;
}

export interface ClientOptions {
  token: TokenRecord;
  userId: number;
  fetch?: FetchLike;
  clock?: Clock;
  random?: () => number;
  idb?: { indexedDB: IDBFactory; IDBKeyRange: typeof IDBKeyRange };
  batchSize?: number;
}

/** A device: its own IndexedDB, its own engine, its own transport. */
export async function createClient(world: World, options: ClientOptions): Promise<Client> {
  const idb = options.idb ?? { indexedDB: new IDBFactory(), IDBKeyRange };
  const db = await openUserDb(options.userId, idb);
  const events = new Emitter();
  const seen: Client['seen'] = [];
  events.on((event, payload) => seen.push({ event, payload }));
  const clock = options.clock ?? new ManualClock(Date.now());
  let engine: SyncEngine | null = null;
  const http = new HttpClient({
    baseUrl: world.url,
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    clock,
    events,
    newId: () => nanoid(),
    swUuid: 'sw-' + nanoid(8),
    onResult: ({ method, ok, networkError }) => {
      if (networkError) engine?.connection.networkFailure();
      else if (ok) engine?.connection.requestSucceeded(method);
    },
  });
  http.setToken(options.token, Date.parse(options.token.created_at ?? new Date().toISOString()));
  engine = await SyncEngine.create({ db, http, clock, random: options.random ?? Math.random, events, newId: () => nanoid(), batchSize: options.batchSize });
  return {
    engine,
    http,
    db,
    events,
    seen,
    of: (name) => seen.filter((s) => s.event === name).map((s) => s.payload) as never,
    clock,
    local: async (collection, id) => {
      const row = await db.relaxed.records.get([collection, id]);
      if (!row) return undefined;
      const { collection: _c, ...rest } = row;
      return rest as SyncRecord;
    },
    close() {
      engine!.stop();
      db.close();
    },
  };
}

export function newItem(world: World, fields: Partial<SyncRecord> = {}): SyncRecord {
  return { id: nanoid(), board_id: world.boardId, folder_id: world.folderId, name: 'Item', row_version: 0, ...fields };
}

/** The server's stored copy (through the API, as the owner). */
export async function serverCopy(world: World, route: string, id: string): Promise<any> {
  const res = await api(world.server.app, 'GET', `/api/${world.teamId}/${route}?board_id=${world.boardId}`, { token: world.owner.token });
  return (res.json().data as any[]).find((r) => r.id === id);
}
