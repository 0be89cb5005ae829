/** The nexmark transport's configuration: Feldera's table.sql compiles; each wrong option is a clear compile error. */
import { describe, expect, it } from 'vitest';
import { compileProgram } from '../../../../src/services/pipelines/worker/compiler.js';
import { nexmarkTables } from './nexmark-sql.js';

function errorsOf(sql: string): string[] {
  const out = compileProgram(sql, 'lower');
  if (out.ok) return [];
  if ('systemError' in out) return [out.systemError];
  for (const m of out.messages) expect(m.error_type).toBe('ConnectorGenerationError');
  return out.messages.map((m) => m.message);
}

const table = (name: string, cols: string, config: string, format = '{"name": "csv"}') =>
  `CREATE TABLE ${name} (${cols}) WITH ('connectors' = '[{"format": ${format}, "transport": {"name": "nexmark", "config": ${config}}}]');\n`;
const PERSON = 'id BIGINT, name VARCHAR, emailAddress VARCHAR, creditCard VARCHAR, city VARCHAR, state VARCHAR, date_time TIMESTAMP(3) NOT NULL, extra VARCHAR';
const AUCTION =
  'id BIGINT, itemName VARCHAR, description VARCHAR, initialBid BIGINT, reserve BIGINT, date_time TIMESTAMP(3) NOT NULL, expires TIMESTAMP(3), seller BIGINT, category BIGINT, extra VARCHAR';
const BID = 'auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, date_time TIMESTAMP(3) NOT NULL, extra VARCHAR';
const three = (person: string, auction = '{"table": "auction"}', bid = '{"table": "bid"}') => table('person', PERSON, person) + table('auction', AUCTION, auction) + table('bid', BID, bid);

describe('nexmark configuration', () => {
  it("takes Feldera's table.sql as it is (with and without LATENESS) and the defaults", () => {
    expect(errorsOf(nexmarkTables({ events: 1000, cores: 4 }))).toEqual([]);
    expect(errorsOf(nexmarkTables({ events: 100_000_000, cores: 16, lateness: true }))).toEqual([]);
    expect(errorsOf(three('{"table": "person"}'))).toEqual([]);
    expect(errorsOf(three('{"table": "person", "options": {"max_step_size_per_thread": 5}}'))).toEqual([]);
  });

  it.each([
    ['{}', "missing field 'table'"],
    ['{"table": "bids"}', "'table': unknown variant `bids`, expected one of `bid`, `auction`, `person`"],
    ['{"table": 3}', 'unknown variant integer `3`'],
    ['{"table": "person", "options": {"events": -1}}', "option 'events': invalid type: integer `-1`, expected a non-negative integer"],
    ['{"table": "person", "options": {"events": "many"}}', 'option \'events\': invalid type: string "many"'],
    ['{"table": "person", "options": {"events": 1.5}}', 'floating point `1.5`'],
    ['{"table": "person", "options": {"threads": 0}}', "option 'threads' must be at least 1"],
    ['{"table": "person", "options": {"batch_size_per_thread": 0}}', "option 'batch_size_per_thread' must be at least 1"],
    ['{"table": "person", "options": {"max_step_size_per_thread": 0}}', "option 'max_step_size_per_thread' must be at least 1"],
    ['{"table": "person", "options": {"event": 10}}', "unknown option 'event' in 'options', expected one of events, threads, batch_size_per_thread, max_step_size_per_thread"],
    ['{"table": "person", "options": [1]}', "'options': invalid type: sequence"],
    ['{"table": "person", "rate": 10}', "unknown field 'rate', expected 'table' or 'options'"],
  ])('refuses the person connector config %s', (config, message) => {
    const errors = errorsOf(three(config));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("relation 'person'");
    expect(errors[0]).toContain(message);
  });

  it('refuses two connectors for one table, options on two connectors, a missing table, a JSON format and too few columns', () => {
    expect(errorsOf(three('{"table": "person"}', '{"table": "bid"}'))[0]).toMatch(/relation 'bid'.*more than one Nexmark input connector for bid \(the other is on 'auction'\)/);
    expect(errorsOf(three('{"table": "person", "options": {"events": 5}}', '{"table": "auction", "options": {"events": 6}}'))[0]).toContain(
      "relation 'auction', connector #1: nexmark: can't configure Nexmark options from two different connectors (also on 'person')",
    );
    expect(errorsOf(table('person', PERSON, '{"table": "person"}') + table('bid', BID, '{"table": "bid"}'))[0]).toContain(
      "the connector must be used exactly three times, once for each of the tables person, auction and bid; no connector generates 'auction'",
    );
    expect(errorsOf(table('person', PERSON, '{"table": "person"}', '{"name": "json"}') + table('auction', AUCTION, '{"table": "auction"}') + table('bid', BID, '{"table": "bid"}'))[0]).toContain(
      "format 'json' cannot read the generator's records",
    );
    expect(
      errorsOf(table('person', PERSON, '{"table": "person"}') + table('auction', AUCTION, '{"table": "auction"}') + table('bid', 'auction BIGINT, bidder BIGINT', '{"table": "bid"}'))[0],
    ).toContain("the 'bid' events have 7 fields (auction, bidder, price, channel, url, date_time, extra), in that order; table 'bid' has only 2 columns");
  });
});
