import { describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { DocBody, fromBase64, SEND_DELAY_MS, toBase64, type UpdateRecordLike } from '../../src/boards/docs/doc-body';
import { DOC_FRAGMENT } from '../../schema/doc-records';

/** The tab's document body (decision 0135): edits leave batched, records from the replica merge in. */
describe('DocBody', () => {
  const type = (body: DocBody, words: string) => {
    const text = new Y.XmlText(words);
    const paragraph = new Y.XmlElement('paragraph');
    paragraph.insert(0, [text]);
    body.doc.getXmlFragment(DOC_FRAGMENT).insert(0, [paragraph]);
  };
  const text = (body: DocBody) => body.doc.getXmlFragment(DOC_FRAGMENT).toString();

  it('base64 round-trips large updates', () => {
    const bytes = Uint8Array.from({ length: 100_000 }, (_, i) => i % 251);
    expect(Buffer.from(fromBase64(toBase64(bytes))).equals(Buffer.from(bytes))).toBe(true);
    expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
  });

  it('sends what was typed within the delay as one update, and never sends back what it received', async () => {
    vi.useFakeTimers();
    try {
      const sentA: string[] = [];
      const sentB: string[] = [];
      const a = new DocBody(async (u) => void sentA.push(u));
      const b = new DocBody(async (u) => void sentB.push(u));
      type(a, 'one');
      type(a, 'two');
      expect(sentA).toHaveLength(0);
      vi.advanceTimersByTime(SEND_DELAY_MS);
      expect(sentA).toHaveLength(1);
      // B receives A's record (twice: realtime and /changes), and sends nothing back.
      const records: UpdateRecordLike[] = [{ id: 'r1', update: sentA[0]! }];
      b.receive(records);
      b.receive(records);
      vi.advanceTimersByTime(SEND_DELAY_MS * 2);
      expect(sentB).toHaveLength(0);
      expect(text(b)).toBe(text(a));
      // Both edit "offline", then exchange: the same document on both sides.
      type(a, 'from a');
      type(b, 'from b');
      vi.advanceTimersByTime(SEND_DELAY_MS);
      b.receive([...records, { id: 'r2', update: sentA[1]! }]);
      a.receive([...records, { id: 'r3', update: sentB[0]! }]);
      expect(text(a)).toBe(text(b));
      expect(text(a)).toContain('from a');
      expect(text(a)).toContain('from b');
      a.destroy();
      b.destroy();
    } finally {
      vi.useRealTimers();
    }
  });

  it('ignores a broken record instead of failing', () => {
    const body = new DocBody(async () => undefined);
    expect(() => body.receive([{ id: 'x', update: toBase64(new Uint8Array([255, 255, 1])) }])).not.toThrow();
    body.destroy();
  });
});
