/** A pipeline fed by Feldera's nexmark connectors through the real server: counts, end of input, tokens, pause. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bag, createCompiled, shutdown, snapshot, startRunning, startSvc, waitFor, type Svc } from '../helpers.js';
import { nexmarkTables } from './nexmark-sql.js';

let svc: Svc;
beforeAll(async () => {
  svc = await startSvc();
});
afterAll(async () => {
  await svc.close();
});

const stats = async (name: string) => (await svc.call('GET', `/v0/pipelines/${name}/stats`)).json;

describe('nexmark connector in a running pipeline', () => {
  it("runs Feldera's table.sql to its `events`, 1:3:46, then ends its input and completes its tokens", async () => {
    const sql = `${nexmarkTables({ events: 10_000, cores: 2, lateness: true })}
CREATE MATERIALIZED VIEW counts AS SELECT 'person' AS t, COUNT(*) AS n, MIN(id) AS lo, MAX(id) AS hi FROM person
  UNION ALL SELECT 'auction', COUNT(*), MIN(id), MAX(id) FROM auction;
CREATE MATERIALIZED VIEW bids AS SELECT COUNT(*) AS n, MIN(auction) AS lo, MAX(date_time) AS last FROM bid;
CREATE MATERIALIZED VIEW q1 AS SELECT auction, bidder, 0.908 * price AS price, date_time FROM bid WHERE auction = 1000 AND bidder = 1001;`;
    await createCompiled(svc, 'nx', sql);
    await startRunning(svc, 'nx');
    const s = await waitFor(async () => {
      const st = await stats('nx');
      return st.global_metrics.pipeline_complete ? st : undefined;
    }, 'pipeline_complete');
    expect(s.global_metrics).toMatchObject({ total_input_records: 10_000, total_processed_records: 10_000 });
    expect(bag(s.inputs.map((i: any) => [i.endpoint_name, i.metrics.total_records, i.metrics.end_of_input]))).toEqual([
      ['AUCTION.unnamed-0', 600, true],
      ['BID.unnamed-0', 9200, true],
      ['PERSON.unnamed-0', 200, true],
    ]);
    const counts = (await snapshot(svc, 'nx', 'counts')).json_data.map((x: any) => x.insert);
    expect(counts).toEqual(
      expect.arrayContaining([
        { T: 'person', N: 200, LO: 1000, HI: 1199 },
        { T: 'auction', N: 600, LO: 1000, HI: 1599 },
      ]),
    );
    const bids = (await snapshot(svc, 'nx', 'bids')).json_data.map((x: any) => x.insert);
    // the last event, 9,999, is a bid at 10 ms × 9,999 from the epoch
    expect(bids).toEqual([{ N: 9200, LO: 1000, LAST: '1970-01-01 00:01:39.99' }]);
    expect((await snapshot(svc, 'nx', 'q1')).json_data.length).toBeGreaterThan(0);
    // the connector's completion token names everything it generated, all of it applied
    const tok = await svc.call('GET', '/v0/pipelines/nx/tables/bid/connectors/unnamed-0/completion_token');
    expect(tok.status, tok.text).toBe(200);
    const status = await svc.call('GET', `/v0/pipelines/nx/completion_status?token=${tok.json.token}`);
    expect(status.json.status).toBe('complete');
    await shutdown(svc, 'nx');
  });

  it('generates nothing while paused and goes on where it was when resumed; ingress and stats answer meanwhile', async () => {
    await createCompiled(svc, 'nxp', `${nexmarkTables({ events: 100_000_000, cores: 1, extraOptions: ', "max_step_size_per_thread": 2000' })}`);
    await startRunning(svc, 'nxp');
    await waitFor(async () => (await stats('nxp')).global_metrics.total_processed_records > 4000, 'some events');
    const pause = await svc.call('POST', '/v0/pipelines/nxp/pause');
    expect(pause.status).toBe(202);
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/nxp')).json.deployment_status === 'Paused', 'Paused');
    // a step under way when the pause arrived still lands (on a loaded machine the worker may take a while to
    // see the pause): the count settles, the same over 3 reads 250 ms apart; then nothing more comes
    let before = -1;
    let same = 0;
    await waitFor(async () => {
      const now = (await stats('nxp')).global_metrics.total_processed_records;
      same = now === before ? same + 1 : 0;
      before = now;
      await new Promise((r) => setTimeout(r, 250));
      return same >= 2;
    }, 'settled');
    await new Promise((r) => setTimeout(r, 500));
    const after = (await stats('nxp')).global_metrics.total_processed_records;
    expect(after).toBe(before);
    // steps are whole: the three tables' records add up to the events generated, in whole rounds
    expect(before % 1000).toBe(0);
    await startRunning(svc, 'nxp');
    await waitFor(async () => (await stats('nxp')).global_metrics.total_processed_records > before + 4000, 'more events after resume');
    // HTTP ingress still gets its turn between generated steps
    const ins = await svc.call('POST', '/v0/pipelines/nxp/ingress/person?format=json', undefined, {
      raw: '{"insert": {"id": 1, "date_time": "2020-01-01 00:00:00"}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(ins.status, ins.text).toBe(200);
    await shutdown(svc, 'nxp');
  });

  it('fails the pipeline, naming the connector and column, when a generated value does not fit its column', async () => {
    const sql = nexmarkTables({ events: 1000 }).replace('auction  BIGINT,\n    bidder', 'auction  TINYINT,\n    bidder');
    await createCompiled(svc, 'nxbad', sql);
    await svc.call('POST', '/v0/pipelines/nxbad/start');
    const p = await waitFor(async () => {
      const r = (await svc.call('GET', '/v0/pipelines/nxbad')).json;
      return r.deployment_status === 'Failed' ? r : undefined;
    }, 'Failed');
    expect(p.deployment_error.message).toContain("Input connector 'BID.unnamed-0' generated a record its table refuses: error parsing field 'AUCTION'");
    await shutdown(svc, 'nxbad');
  });
});
