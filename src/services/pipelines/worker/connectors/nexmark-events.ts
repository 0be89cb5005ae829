/**
 * The Nexmark event generator, by the rules of the standard generator that Feldera's `nexmark` connector runs
 * (feldera crates/nexmark/src/generator*, after the Nexmark Flink generator): each event is a pure function of
 * its id, drawn from a generator seeded with that id, so any range of ids can be generated on its own, in any
 * order, and again identically (resume).
 *
 * Rules (Feldera's defaults, which its connector does not let a pipeline change):
 * - Kind by id: r = id mod 50; r < 1 a person, r < 4 an auction, else a bid (1 : 3 : 46).
 * - Event time: date_time = 10 ms × id from 1970-01-01 00:00:00.000 (base time 0, 10 ms between events).
 * - Ids: a new person is 1000 + id/50, a new auction 1000 + the auction slots so far; categories 10..14.
 * - A random person is one of the last 1000 (plus 10 "leads" not created yet); a random auction one of the
 *   last 100 in flight. Hot sellers (3 in 4 auctions) and hot bidders (3 in 4 bids) are the first and second
 *   person of the last block of 100 persons; hot auctions (1 in 2 bids) the first of the last block of 100.
 * - Prices: ceil(10^(6u) × 100) cents, u uniform in [0, 1); auctions expire 1 + U[0, 2 × horizon) ms after
 *   they start, horizon = time to the event 1666 ids later.
 * - Strings: alphanumeric, lengths uniform in [3, max]; `extra` pads each event to its average size ± 20%
 *   (cut from a fixed pool of random alphanumerics at a random place).
 * Values come in the model's field order (table.sql's column order), timestamps as milliseconds since the
 * epoch (a TIMESTAMP column's codec reads them so).
 *
 * Not byte-identical with Feldera's stream (another PRNG: seeded-random.ts); the same rules. Pure.
 */
import { SeededRandom } from './seeded-random.js';

export type NexmarkTable = 'person' | 'auction' | 'bid';

export const NEXMARK_TABLES: readonly NexmarkTable[] = ['person', 'auction', 'bid'];

/** The model's fields per table, in table.sql's column order. */
export const NEXMARK_FIELDS: Record<NexmarkTable, readonly string[]> = {
  person: ['id', 'name', 'emailAddress', 'creditCard', 'city', 'state', 'date_time', 'extra'],
  auction: ['id', 'itemName', 'description', 'initialBid', 'reserve', 'date_time', 'expires', 'seller', 'category', 'extra'],
  bid: ['auction', 'bidder', 'price', 'channel', 'url', 'date_time', 'extra'],
};

export const PERSON_PROPORTION = 1;
export const AUCTION_PROPORTION = 3;
export const BID_PROPORTION = 46;
const TOTAL_PROPORTION = PERSON_PROPORTION + AUCTION_PROPORTION + BID_PROPORTION;
export const EVENT_INTERVAL_MS = 10;
export const FIRST_PERSON_ID = 1000;
export const FIRST_AUCTION_ID = 1000;
export const FIRST_CATEGORY_ID = 10;
const NUM_CATEGORIES = 5;
const NUM_ACTIVE_PEOPLE = 1000;
const PERSON_ID_LEAD = 10;
const NUM_IN_FLIGHT_AUCTIONS = 100;
const HOT_AUCTION_RATIO = 2;
const HOT_BIDDERS_RATIO = 4;
const HOT_SELLERS_RATIO = 4;
/** Hot sellers, bidders and auctions are taken from blocks of this many. */
export const HOT_BLOCK = 100;
const HOT_CHANNELS_RATIO = 100;
const CHANNELS_NUMBER = 10_000;
const AVG_PERSON_BYTES = 200;
const AVG_AUCTION_BYTES = 500;
const AVG_BID_BYTES = 100;

const US_STATES = ['AZ', 'CA', 'ID', 'OR', 'WA', 'WY'];
const US_CITIES = ['Phoenix', 'Los Angeles', 'San Francisco', 'Boise', 'Portland', 'Bend', 'Redmond', 'Seattle', 'Kent', 'Cheyenne'];
const FIRST_NAMES = ['Peter', 'Paul', 'Luke', 'John', 'Saul', 'Vicky', 'Kate', 'Julie', 'Sarah', 'Deiter', 'Walter'];
const LAST_NAMES = ['Shultz', 'Abrams', 'Spencer', 'White', 'Bartels', 'Walton', 'Smith', 'Jones', 'Noris'];
const HOT_CHANNELS = ['Google', 'Facebook', 'Baidu', 'Apple'];
const HOT_URLS = [
  'https://www.nexmark.com/googl/item.htm?query=1',
  'https://www.nexmark.com/meta/item.htm?query=1',
  'https://www.nexmark.com/bidu/item.htm?query=1',
  'https://www.nexmark.com/aapl/item.htm?query=1',
];

/** Random alphanumerics that `extra` padding is cut from (the same for every run). */
const EXTRA_POOL = new SeededRandom(0x6e65786d, 0x61726b).alnum(1 << 16);

export function nexmarkKind(id: number): NexmarkTable {
  const r = id % TOTAL_PROPORTION;
  return r < PERSON_PROPORTION ? 'person' : r < PERSON_PROPORTION + AUCTION_PROPORTION ? 'auction' : 'bid';
}

/** The last person id (base 0) as of event `id`: the current one when `id` is a person. */
export function lastBase0PersonId(id: number): number {
  const epoch = Math.floor(id / TOTAL_PROPORTION);
  let offset = id % TOTAL_PROPORTION;
  if (offset >= PERSON_PROPORTION) offset = PERSON_PROPORTION - 1;
  return epoch * PERSON_PROPORTION + offset;
}

/** The last auction id (base 0) as of event `id`: the current one when `id` is an auction. */
export function lastBase0AuctionId(id: number): number {
  let epoch = Math.floor(id / TOTAL_PROPORTION);
  let offset = id % TOTAL_PROPORTION;
  if (offset < PERSON_PROPORTION) {
    if (epoch === 0) return 0;
    epoch -= 1;
    offset = AUCTION_PROPORTION - 1;
  } else if (offset >= PERSON_PROPORTION + AUCTION_PROPORTION) offset = AUCTION_PROPORTION - 1;
  else offset -= PERSON_PROPORTION;
  return epoch * AUCTION_PROPORTION + offset;
}

function timestampOf(id: number): number {
  return EVENT_INTERVAL_MS * id;
}

/** Generates events by id; one instance reuses its random generator (not shared between threads). */
export class NexmarkEvents {
  private readonly rng = new SeededRandom();
  /** Channels beyond the hot ones, by number (10,000 at most, as Feldera's cache). */
  private readonly channels = new Map<number, [string, string]>();
  private readonly channelRng = new SeededRandom();

  /** The event `id`: its table and its values in the table's column order. */
  event(id: number): { table: NexmarkTable; values: (string | number)[] } {
    this.rng.reseedNumber(id);
    const table = nexmarkKind(id);
    const values = table === 'person' ? this.person(id) : table === 'auction' ? this.auction(id) : this.bid(id);
    return { table, values };
  }

  private nextBase0PersonId(id: number): number {
    const numPeople = lastBase0PersonId(id) + 1;
    const active = Math.min(numPeople, NUM_ACTIVE_PEOPLE);
    return numPeople - active + this.rng.below(active + PERSON_ID_LEAD);
  }

  private nextBase0AuctionId(id: number): number {
    const max = lastBase0AuctionId(id);
    const min = Math.max(0, max - NUM_IN_FLIGHT_AUCTIONS);
    return min + this.rng.below(max - min + 1);
  }

  private price(): number {
    return Math.ceil(Math.pow(10, this.rng.float() * 6) * 100);
  }

  /** A string of 3..max alphanumeric characters. */
  private string(max: number): string {
    return this.rng.alnum(this.rng.range(3, max + 1));
  }

  /**
   * Padding so that `currentSize` plus it averages `average` bytes (± 20%): a window of that length at a
   * random place in a fixed pool of random alphanumerics (the payload only pads events, no query reads
   * it; a window costs a slice where drawing each character was 40% of an event's generation).
   */
  private extra(currentSize: number, average: number): string {
    if (currentSize > average) return '';
    const avgExtra = average - currentSize;
    const delta = Math.round(avgExtra * 0.2);
    if (delta === 0) return '';
    const len = this.rng.range(Math.max(0, avgExtra - delta), avgExtra + delta + 1);
    const at = this.rng.below(EXTRA_POOL.length - len);
    return EXTRA_POOL.slice(at, at + len);
  }

  private person(id: number): (string | number)[] {
    const rng = this.rng;
    const personId = lastBase0PersonId(id) + FIRST_PERSON_ID;
    const name = `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
    const email = `${this.string(7)}@${this.string(5)}.com`;
    const card = [0, 1, 2, 3].map(() => String(rng.below(10_000)).padStart(4, '0')).join(' ');
    const city = rng.pick(US_CITIES);
    const state = rng.pick(US_STATES);
    const size = 8 + name.length + email.length + card.length + city.length + state.length;
    return [personId, name, email, card, city, state, timestampOf(id), this.extra(size, AVG_PERSON_BYTES)];
  }

  private auction(id: number): (string | number)[] {
    const rng = this.rng;
    const auctionId = lastBase0AuctionId(id) + FIRST_AUCTION_ID;
    const seller = (rng.below(HOT_SELLERS_RATIO) === 0 ? this.nextBase0PersonId(id) : Math.floor(lastBase0PersonId(id) / HOT_BLOCK) * HOT_BLOCK) + FIRST_PERSON_ID;
    const category = FIRST_CATEGORY_ID + rng.below(NUM_CATEGORIES);
    const initialBid = this.price();
    const timestamp = timestampOf(id);
    // the auction runs for 1 + U[0, 2 × horizon) ms, horizon = until the auction NUM_IN_FLIGHT_AUCTIONS later
    const eventsForAuctions = Math.floor((NUM_IN_FLIGHT_AUCTIONS * TOTAL_PROPORTION) / AUCTION_PROPORTION);
    const horizon = Math.max(0, timestampOf(id + eventsForAuctions) - timestamp);
    const length = 1 + rng.below(Math.max(horizon * 2, 1));
    const itemName = this.string(20);
    const description = this.string(100);
    const reserve = initialBid + this.price();
    const size = 8 + itemName.length + description.length + 8 * 3 + 8 * 2;
    return [auctionId, itemName, description, initialBid, reserve, timestamp, timestamp + length, seller, category, this.extra(size, AVG_AUCTION_BYTES)];
  }

  private bid(id: number): (string | number)[] {
    const rng = this.rng;
    const auction = (rng.below(HOT_AUCTION_RATIO) === 0 ? this.nextBase0AuctionId(id) : Math.floor(lastBase0AuctionId(id) / HOT_BLOCK) * HOT_BLOCK) + FIRST_AUCTION_ID;
    const bidder = (rng.below(HOT_BIDDERS_RATIO) === 0 ? this.nextBase0PersonId(id) : Math.floor(lastBase0PersonId(id) / HOT_BLOCK) * HOT_BLOCK + 1) + FIRST_PERSON_ID;
    const price = this.price();
    const channelNumber = rng.below(CHANNELS_NUMBER);
    let channel: string;
    let url: string;
    if (rng.range(1, HOT_CHANNELS_RATIO + 1) === HOT_CHANNELS_RATIO) [channel, url] = this.channel(channelNumber);
    else {
      const hot = rng.below(HOT_CHANNELS.length);
      channel = HOT_CHANNELS[hot]!;
      url = HOT_URLS[hot]!;
    }
    return [auction, bidder, price, channel, url, timestampOf(id), this.extra(8 * 3 + 8, AVG_BID_BYTES)];
  }

  /** Channel `n` beyond the hot ones: `channel-n` and a URL drawn from n alone (the same every time). */
  private channel(n: number): [string, string] {
    let c = this.channels.get(n);
    if (!c) {
      const rng = this.channelRng.reseedNumber(n);
      const base = `https://www.nexmark.com/${rng.alnum(rng.range(3, 6))}/item.htm?query=1`;
      // 9 in 10 carry a channel id: n with its 32 bits reversed, as Java's Integer.reverse
      const url = rng.below(10) === 9 ? base : `${base}&channel_id=${reverseBits32(n)}`;
      c = [`channel-${n}`, url];
      this.channels.set(n, c);
    }
    return c;
  }
}

function reverseBits32(n: number): number {
  let r = 0;
  for (let i = 0; i < 32; i++) {
    r = (r << 1) | (n & 1);
    n >>>= 1;
  }
  return r >>> 0;
}
