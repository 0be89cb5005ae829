/**
 * The query parameters of a running pipeline's routes (ingress, egress snapshots, ad-hoc queries, checkpoint
 * status), declared through the kit: the manager's 400/405/416 bodies to the byte (recorded before the routes
 * moved), the first bad parameter only, in the manager's order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompiled, startRunning, startSvc, type Svc } from '../../helpers.js';

let svc: Svc;
beforeAll(async () => {
  svc = await startSvc();
  await createCompiled(svc, 'p', "CREATE TABLE t (x INT) WITH ('materialized' = 'true'); CREATE MATERIALIZED VIEW v AS SELECT x FROM t;");
  await startRunning(svc, 'p');
}, 60_000);
afterAll(async () => {
  await svc.close();
});

const masked = (text: string) => text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>');

describe('declared queries of a running pipeline', () => {
  const cases: [string, string][] = [
    ['GET', '/v0/pipelines/p/query'],
    ['GET', '/v0/pipelines/p/query?sql=%20'],
    ['GET', '/v0/pipelines/p/query?sql=SELECT%201&format=xml'],
    ['GET', '/v0/pipelines/p/query?format=xml'],
    ['GET', '/v0/pipelines/p/query?sql=SELECT%201&format=json&format=text'],
    ['POST', '/v0/pipelines/p/ingress/t?format=xml'],
    ['POST', '/v0/pipelines/p/ingress/t?format=json&update_format=snowflake'],
    ['POST', '/v0/pipelines/p/ingress/t?format=json&update_format=other&array=maybe'],
    ['POST', '/v0/pipelines/p/ingress/t?format=json&array=maybe'],
    ['POST', '/v0/pipelines/p/ingress/t?force=maybe&format=xml'],
    ['POST', '/v0/pipelines/p/ingress/t?format=csv&force=maybe'],
    ['POST', '/v0/pipelines/p/ingress/nope?format=xml'],
    ['POST', '/v0/pipelines/p/egress/v?mode=sometimes'],
    ['POST', '/v0/pipelines/p/egress/v?mode=snapshot&query=all'],
    ['POST', '/v0/pipelines/p/egress/v?mode=watch&query=quantiles'],
    ['POST', '/v0/pipelines/p/egress/v?mode=watch&query=neighborhood'],
    ['POST', '/v0/pipelines/p/egress/v?mode=snapshot&query=quantiles&quantiles=many'],
    ['POST', '/v0/pipelines/p/egress/v?mode=snapshot&query=quantiles&quantiles=0'],
    ['POST', '/v0/pipelines/p/egress/v?mode=snapshot&query=quantiles&quantiles=1001'],
    ['POST', '/v0/pipelines/p/egress/nope?mode=sometimes'],
    ['POST', '/v0/pipelines/p/egress/v?mode=snapshot&format=xml'],
    ['POST', '/v0/pipelines/p/egress/v?backpressure=maybe'],
    ['POST', '/v0/pipelines/p/egress/v?send_snapshot=maybe'],
    ['GET', '/v0/pipelines/p/checkpoint_status?incarnation_uuid=zz'],
    ['GET', '/v0/pipelines/p/checkpoint_status?incarnation_uuid=00000000-0000-0000-0000-000000000000'],
  ];
  for (const [method, path] of cases) {
    it(`${method} ${path}`, async () => {
      const r = await svc.call(method, path, undefined, method === 'POST' ? { raw: '' } : {});
      expect({ status: r.status, body: masked(r.text) }).toMatchSnapshot();
    });
  }
});
