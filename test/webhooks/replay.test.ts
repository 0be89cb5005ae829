import { describe, expect, it } from 'vitest';
import { filterItems, itemsFromText, parseSince, replay } from '../../src/webhooks/replay.js';
import { startTestReceiver } from '../helpers/test-receiver.js';

const env = (id: string, type = 'user.created', ts = '2026-01-01T00:00:00.000Z') => ({ id, type, timestamp: ts, data: { id: '1' } });

describe('replay sources', () => {
  it('reads JSON arrays and NDJSON (also ops hook serve --json output)', () => {
    expect(itemsFromText(JSON.stringify([env('a'), env('b')])).map((i) => i.id)).toEqual(['a', 'b']);
    const ndjson = [
      JSON.stringify({ event: 'ready', url: 'http://x' }),
      JSON.stringify({ event: 'received', ...env('c'), receivedAt: '2026-02-01T00:00:00.000Z', verified: true, duplicate: false }),
      '',
      JSON.stringify(env('d', 'payment.failed')),
      JSON.stringify({ event: 'stopped' }),
    ].join('\n');
    const items = itemsFromText(ndjson);
    expect(items.map((i) => [i.id, i.type])).toEqual([
      ['c', 'user.created'],
      ['d', 'payment.failed'],
    ]);
    expect(items[0]!.receivedAt).toBe(Date.parse('2026-02-01T00:00:00.000Z'));
    // the bytes are the envelope only
    expect(JSON.parse(items[0]!.body.toString())).toEqual(env('c'));
    expect(itemsFromText('')).toEqual([]);
  });

  it('says which line is wrong', () => {
    expect(() => itemsFromText(`${JSON.stringify(env('a'))}\n{oops`)).toThrow('line 2 is not valid JSON');
    expect(() => itemsFromText('{"type":"x"}')).toThrow(/line 1: envelope field "id"/);
    expect(() => itemsFromText('[1')).toThrow(/not a valid JSON array/);
  });

  it('filters by id, type and since', () => {
    const items = itemsFromText([env('a', 'user.created', '2026-01-01T00:00:00Z'), env('b', 'tag.created', '2026-03-01T00:00:00Z')].map((e) => JSON.stringify(e)).join('\n'));
    expect(filterItems(items, { id: 'b' }).map((i) => i.id)).toEqual(['b']);
    expect(filterItems(items, { type: 'user.created' }).map((i) => i.id)).toEqual(['a']);
    expect(filterItems(items, { since: Date.parse('2026-02-01T00:00:00Z') }).map((i) => i.id)).toEqual(['b']);
  });

  it('parses --since as an ISO time or a duration back from now', () => {
    const now = Date.parse('2026-01-02T00:00:00Z');
    expect(parseSince('2026-01-01T00:00:00Z', now)).toBe(Date.parse('2026-01-01T00:00:00Z'));
    expect(parseSince('1h', now)).toBe(now - 3_600_000);
    expect(parseSince('30m', now)).toBe(now - 1_800_000);
    expect(parseSince('2d', now)).toBe(now - 2 * 86_400_000);
    expect(parseSince('yesterday', now)).toBeNull();
    expect(parseSince('2026-13-45', now)).toBeNull();
  });

  it('sends each item signed and reports every answer', async () => {
    const rcv = await startTestReceiver((_r, i) => ({ status: i === 0 ? 200 : 500, body: 'no' }));
    try {
      const items = itemsFromText([env('a'), env('b')].map((e) => JSON.stringify(e)).join('\n'));
      const seen: string[] = [];
      const out = await replay(items, { to: rcv.url, secret: 'k', onResult: (o) => seen.push(o.id) });
      expect(out.map((o) => [o.id, o.ok, o.statusCode])).toEqual([
        ['a', true, 200],
        ['b', false, 500],
      ]);
      expect(out[1]!.responseExcerpt).toBe('no');
      expect(seen).toEqual(['a', 'b']);
      const { createHmac } = await import('node:crypto');
      expect(rcv.requests[0]!.headers['x-signature']).toBe(createHmac('sha256', 'k').update(rcv.requests[0]!.body).digest('hex'));
    } finally {
      await rcv.close();
    }
  });
});
