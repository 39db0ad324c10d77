import dgram from 'node:dgram';
import { freePort } from './helpers';

/** A DNS server on loopback answering TXT questions from `records` (UDP, one answer). */
export async function startDns(records: Map<string, string>): Promise<{ port: number; close(): void }> {
  const socket = dgram.createSocket('udp4');
  socket.on('message', (query, from) => {
    let offset = 12;
    const labels: string[] = [];
    while (query[offset]! > 0) {
      labels.push(query.subarray(offset + 1, offset + 1 + query[offset]!).toString('latin1'));
      offset += query[offset]! + 1;
    }
    const question = query.subarray(12, offset + 5);
    const value = records.get(labels.join('.').toLowerCase());
    const header = Buffer.from([query[0]!, query[1]!, 0x81, value ? 0x80 : 0x83, 0, 1, 0, value ? 1 : 0, 0, 0, 0, 0]);
    const parts = [header, question];
    if (value) {
      const text = Buffer.from(value, 'latin1');
      const rdata = Buffer.concat([Buffer.from([text.length]), text]);
      const answer = Buffer.alloc(12);
      answer.writeUInt16BE(0xc00c, 0);
      answer.writeUInt16BE(16, 2);
      answer.writeUInt16BE(1, 4);
      answer.writeUInt32BE(60, 6);
      answer.writeUInt16BE(rdata.length, 10);
      parts.push(answer, rdata);
    }
    socket.send(Buffer.concat(parts), from.port, from.address);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => socket.bind(port, '127.0.0.1', resolve));
  return { port, close: () => socket.close() };
}
