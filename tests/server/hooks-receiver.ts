import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP server on loopback that records what webhooks send it (not a mock: the server under
 * test connects to it over TCP). `respond` decides each answer; the default is 200 "ok".
 */

export interface Received {
  headers: http.IncomingHttpHeaders;
  /** The raw body exactly as it arrived (the signature is over these bytes). */
  raw: string;
  body: { id: string; event: string; team_id: number; board_id: string | null; data: Record<string, unknown>; created_at: string; changes?: unknown };
  at: number;
}

export interface Answer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** Wait this long before answering. */
  delayMs?: number;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  respond: (request: Received) => Answer;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = { url: '', port: 0, received: [], respond: () => ({ status: 200, body: 'ok' }), close: async () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Received['body'];
      try {
        body = JSON.parse(raw);
      } catch {
        body = {} as Received['body'];
      }
      const entry: Received = { headers: req.headers, raw, body, at: Date.now() };
      receiver.received.push(entry);
      const answer = receiver.respond(entry);
      const send = () => {
        res.writeHead(answer.status, { 'content-type': 'text/plain', ...(answer.headers ?? {}) });
        res.end(answer.body ?? '');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
