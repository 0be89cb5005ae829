/** The Nexmark generator's rules: proportions, ids, hot items, time base, strings; determinism by event id. */
import { describe, expect, it } from 'vitest';
import {
  FIRST_AUCTION_ID,
  FIRST_PERSON_ID,
  HOT_BLOCK,
  lastBase0AuctionId,
  lastBase0PersonId,
  NexmarkEvents,
  nexmarkKind,
  type NexmarkTable,
} from '../../../../src/services/pipelines/worker/connectors/nexmark-events.js';

const N = 50_000;
const gen = new NexmarkEvents();
const events = Array.from({ length: N }, (_, id) => ({ id, ...gen.event(id) }));
const of = (t: NexmarkTable) => events.filter((e) => e.table === t);

describe('nexmark events', () => {
  it('come as persons, auctions and bids in the proportions 1:3:46, by id', () => {
    expect(of('person').length).toBe(N / 50);
    expect(of('auction').length).toBe((3 * N) / 50);
    expect(of('bid').length).toBe((46 * N) / 50);
    expect(events.slice(0, 5).map((e) => e.table)).toEqual(['person', 'auction', 'auction', 'auction', 'bid']);
    expect(nexmarkKind(50)).toBe('person');
    expect(nexmarkKind(99)).toBe('bid');
  });

  it('number persons and auctions consecutively from 1000 and time events 10 ms apart from the epoch', () => {
    expect(of('person').map((e) => e.values[0])).toEqual(Array.from({ length: N / 50 }, (_, i) => FIRST_PERSON_ID + i));
    expect(of('auction').map((e) => e.values[0])).toEqual(Array.from({ length: (3 * N) / 50 }, (_, i) => FIRST_AUCTION_ID + i));
    for (const e of events.slice(0, 200)) {
      const at = e.table === 'auction' ? 5 : e.table === 'person' ? 6 : 5;
      expect(e.values[at]).toBe(10 * e.id);
    }
    expect(lastBase0PersonId(49)).toBe(0);
    expect(lastBase0PersonId(50)).toBe(1);
    expect(lastBase0AuctionId(0)).toBe(0);
    expect(lastBase0AuctionId(51)).toBe(3);
    expect(lastBase0AuctionId(50)).toBe(2);
  });

  it('bid on auctions and by persons that exist (or are about to), half of the bids on the hot auction, 3 in 4 by the hot bidder', () => {
    let hotAuction = 0;
    let hotBidder = 0;
    const bad: unknown[] = [];
    for (const e of of('bid')) {
      const [auction, bidder, price] = e.values as number[];
      const lastAuction = lastBase0AuctionId(e.id) + FIRST_AUCTION_ID;
      const lastPerson = lastBase0PersonId(e.id) + FIRST_PERSON_ID;
      const ok =
        auction! <= lastAuction &&
        auction! >= Math.max(FIRST_AUCTION_ID, lastAuction - 100) &&
        bidder! <= lastPerson + 10 &&
        bidder! >= Math.max(FIRST_PERSON_ID, lastPerson - 1000) &&
        price! >= 100 &&
        price! <= 100_000_000;
      if (!ok) bad.push(e);
      if (auction === Math.floor((lastAuction - FIRST_AUCTION_ID) / HOT_BLOCK) * HOT_BLOCK + FIRST_AUCTION_ID) hotAuction++;
      if (bidder === Math.floor((lastPerson - FIRST_PERSON_ID) / HOT_BLOCK) * HOT_BLOCK + 1 + FIRST_PERSON_ID) hotBidder++;
    }
    expect(bad).toEqual([]);
    const bids = of('bid').length;
    // the hot one by rule (1/2, 3/4), plus the random draws that hit it by chance
    expect(hotAuction / bids).toBeGreaterThan(0.49);
    expect(hotAuction / bids).toBeLessThan(0.53);
    expect(hotBidder / bids).toBeGreaterThan(0.74);
    expect(hotBidder / bids).toBeLessThan(0.77);
  });

  it('sell mostly by the hot seller, in 5 categories, expiring after the start, reserve above the initial bid', () => {
    let hotSeller = 0;
    for (const e of of('auction')) {
      const [, itemName, description, initialBid, reserve, dateTime, expires, seller, category] = e.values as [number, string, string, number, number, number, number, number, number];
      expect(itemName).toMatch(/^[A-Za-z0-9]{3,20}$/);
      expect(description).toMatch(/^[A-Za-z0-9]{3,100}$/);
      expect(reserve).toBeGreaterThan(initialBid);
      expect(expires).toBeGreaterThan(dateTime);
      expect(expires - dateTime).toBeLessThanOrEqual(2 * 16_660 + 1);
      expect(category).toBeGreaterThanOrEqual(10);
      expect(category).toBeLessThanOrEqual(14);
      const lastPerson = lastBase0PersonId(e.id);
      if (seller === Math.floor(lastPerson / HOT_BLOCK) * HOT_BLOCK + FIRST_PERSON_ID) hotSeller++;
    }
    expect(hotSeller / of('auction').length).toBeGreaterThan(0.73);
  });

  it('fill strings by the model: names, emails, cards, cities, states, channels and URLs, extra around the average size', () => {
    for (const e of of('person').slice(0, 300)) {
      const [, name, email, card, city, state, , extra] = e.values as string[];
      expect(name).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+$/);
      expect(email).toMatch(/^[A-Za-z0-9]{3,7}@[A-Za-z0-9]{3,5}\.com$/);
      expect(card).toMatch(/^\d{4} \d{4} \d{4} \d{4}$/);
      expect(['Phoenix', 'Los Angeles', 'San Francisco', 'Boise', 'Portland', 'Bend', 'Redmond', 'Seattle', 'Kent', 'Cheyenne']).toContain(city);
      expect(['AZ', 'CA', 'ID', 'OR', 'WA', 'WY']).toContain(state);
      expect(extra.length).toBeGreaterThan(100);
    }
    const channels = new Map<string, number>();
    const bad: unknown[] = [];
    for (const e of of('bid')) {
      const [, , , channel, url, , extra] = e.values as string[];
      channels.set(channel!, (channels.get(channel!) ?? 0) + 1);
      const urlOk = channel!.startsWith('channel-')
        ? /^https:\/\/www\.nexmark\.com\/[A-Za-z0-9]{3,5}\/item\.htm\?query=1(&channel_id=\d+)?$/.test(url!)
        : /^https:\/\/www\.nexmark\.com\/(googl|meta|bidu|aapl)\/item\.htm\?query=1$/.test(url!);
      if (!urlOk || extra!.length < 54 || extra!.length > 82) bad.push(e);
    }
    expect(bad).toEqual([]);
    const hot = ['Google', 'Facebook', 'Baidu', 'Apple'].reduce((s, c) => s + (channels.get(c) ?? 0), 0);
    expect(hot / of('bid').length).toBeGreaterThan(0.98);
    expect(hot / of('bid').length).toBeLessThan(1);
  });

  it('are a function of the id alone: the same event from another generator, in any order', () => {
    const other = new NexmarkEvents();
    for (const id of [49_999, 7, 0, 12_345, 3, 50]) expect(other.event(id)).toEqual(events[id] && { table: events[id]!.table, values: events[id]!.values });
    expect(new NexmarkEvents().event(123_456_789)).toEqual(new NexmarkEvents().event(123_456_789));
  });
});
