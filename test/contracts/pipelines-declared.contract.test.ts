/**
 * The OpenAPI entries the pipeline routes get from their declarations (services/kit/route.ts, control/routes/
 * bodies.ts, query-fields.ts, io-queries.ts), read by @fastify/swagger off the real service, against today's
 * Feldera openapi.json (feldera.contract.json): every query parameter Feldera documents on a declared route is
 * declared here, and a pipeline definition's body declares Feldera's required fields.
 */
import swagger from '@fastify/swagger';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import service from '../../src/services/pipelines/index.js';
import { buildServiceApp, type ServiceApp } from '../helpers/service-app.js';

type Operation = { parameters?: { name?: string; in?: string }[]; requestBody?: unknown };
type Doc = { paths: Record<string, Record<string, Operation>>; components?: unknown };

const feldera = JSON.parse(readFileSync(new URL('./feldera.contract.json', import.meta.url), 'utf8')) as Doc;

let sa: ServiceApp;
let ours: Doc;
beforeAll(async () => {
  sa = await buildServiceApp(service, {}, { beforeRoutes: async (app) => void (await app.register(swagger, { openapi: { openapi: '3.1.0', info: { title: 'ops pipelines', version: '0' } } })) });
  ours = sa.app.swagger() as unknown as Doc;
});
afterAll(async () => {
  await sa.close();
});

const queryNames = (op: Operation | undefined) => (op?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);

/** Feldera's path and method, and the route here that answers it (lifecycle actions share one route). */
const declared: [string, string, string][] = [
  ['get', '/v0/pipelines', '/v0/pipelines'],
  ['get', '/v0/pipelines/{pipeline_name}', '/v0/pipelines/{name}'],
  ['post', '/v0/pipelines/{pipeline_name}/stop', '/v0/pipelines/{name}/{action}'],
  ['post', '/v0/pipelines/{pipeline_name}/ingress/{table_name}', '/v0/pipelines/{name}/ingress/{table}'],
  ['post', '/v0/pipelines/{pipeline_name}/egress/{table_name}', '/v0/pipelines/{name}/egress/{view}'],
  ['get', '/v0/pipelines/{pipeline_name}/query', '/v0/pipelines/{name}/query'],
  ['get', '/v0/pipelines/{pipeline_name}/events', '/v0/pipelines/{name}/events'],
  ['get', '/v0/pipelines/{pipeline_name}/events/{event_id}', '/v0/pipelines/{name}/events/{event}'],
  ['get', '/v0/pipelines/{pipeline_name}/metrics', '/v0/pipelines/{name}/metrics'],
  ['get', '/v0/pipelines/{pipeline_name}/completion_status', '/v0/pipelines/{name}/completion_status'],
];

describe("the pipeline routes' declared OpenAPI entries", () => {
  for (const [method, theirs, here] of declared) {
    it(`${method.toUpperCase()} ${here} declares Feldera's query parameters`, () => {
      const wanted = queryNames(feldera.paths[theirs]?.[method]);
      expect(wanted.length).toBeGreaterThan(0);
      expect(queryNames(ours.paths[here]?.[method])).toEqual(expect.arrayContaining(wanted));
    });
  }

  it("the egress route also declares the encoders' fields and quantiles; the start route declares ?initial", () => {
    expect(queryNames(ours.paths['/v0/pipelines/{name}/egress/{view}']?.post)).toEqual(
      expect.arrayContaining(['mode', 'query', 'update_format', 'json_flavor', 'buffer_size_records', 'key_fields', 'delimiter', 'quantiles']),
    );
    expect(queryNames(feldera.paths['/v0/pipelines/{pipeline_name}/start']?.post)).toContain('initial');
    expect(queryNames(ours.paths['/v0/pipelines/{name}/{action}']?.post)).toContain('initial');
  });

  it('the pipeline bodies declare the fields Feldera requires, and no query', () => {
    const body = (path: string, method: string) => (ours.paths[path]?.[method]?.requestBody as { content: Record<string, { schema: { properties: object; required?: string[] } }> }).content['application/json']!.schema;
    const put = body('/v0/pipelines/{name}', 'put');
    expect(Object.keys(put.properties)).toEqual(expect.arrayContaining(['name', 'description', 'program_code', 'runtime_config', 'program_config', 'udf_rust', 'udf_toml', 'tags']));
    expect(put.required).toEqual(['program_code']);
    expect(body('/v0/pipelines', 'post').required).toEqual(['name', 'program_code']);
    expect(body('/v0/pipelines/{name}', 'patch').required).toBeUndefined();
    expect(body('/v0/validate_program', 'post').required).toEqual(['program_code']);
  });
});
