/**
 * The pipeline routes whose query is declared (control/routes/query-fields.ts): the manager's 400 bodies to the
 * byte (recorded before the routes moved onto the kit), the first bad parameter only, defaults when absent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSvc, type Svc } from '../../helpers.js';

let svc: Svc;
beforeAll(async () => {
  svc = await startSvc();
});
afterAll(async () => {
  await svc.close();
});

describe('declared pipeline queries', () => {
  for (const query of ['selector=everything', 'selector=all&selector=status', 'code=maybe', 'selector=nope&code=maybe', 'code=yes&selector=status']) {
    it(`GET /v0/pipelines?${query}`, async () => {
      const r = await svc.call('GET', `/v0/pipelines?${query}`);
      expect({ status: r.status, body: r.text }).toMatchSnapshot();
    });
  }

  it('GET /v0/pipelines/missing/metrics?format=xml: the format is refused before the pipeline is looked up', async () => {
    const r = await svc.call('GET', '/v0/pipelines/missing/metrics?format=xml');
    expect({ status: r.status, body: r.text }).toMatchSnapshot();
  });

  it('defaults: no query lists the pipelines (none yet), code=0 and selector=status are taken', async () => {
    expect((await svc.call('GET', '/v0/pipelines')).json).toEqual([]);
    expect((await svc.call('GET', '/v0/pipelines?code=0&selector=status')).status).toBe(200);
  });

  it('a write ignores ?selector, as Feldera does: a bad value neither refuses the write after the fact nor trims the answer', async () => {
    const body = { name: 'sel', program_code: 'CREATE TABLE t (x INT);' };
    const created = await svc.call('POST', '/v0/pipelines?selector=bogus', body);
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ name: 'sel', program_code: body.program_code });
    const replaced = await svc.call('PUT', '/v0/pipelines/sel?selector=status', { ...body, description: 'again' });
    expect(replaced.status).toBe(200);
    expect(replaced.json).toMatchObject({ description: 'again', program_code: body.program_code });
    const changed = await svc.call('PATCH', '/v0/pipelines/sel?selector=nope', { description: 'patched' });
    expect(changed.status).toBe(200);
    expect(changed.json).toMatchObject({ description: 'patched', program_code: body.program_code });
    // the reads still refuse it
    expect((await svc.call('GET', '/v0/pipelines/sel?selector=bogus')).status).toBe(400);
    expect((await svc.call('DELETE', '/v0/pipelines/sel')).status).toBe(200);
  });
});
