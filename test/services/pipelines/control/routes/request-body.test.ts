/**
 * control/routes/request-body.ts: a pipeline route's body read as the manager reads it, through the services' one
 * depth-then-parse reader: no body is null, bad or too deep JSON a 400 InvalidRequestBody in the manager's words.
 */
import { describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { bodyText, jsonBodyText, jsonOfBody } from '../../../../../src/services/pipelines/control/routes/request-body.js';
import { FelderaError } from '../../../../../src/services/pipelines/shared/errors.js';
import { MAX_JSON_DEPTH } from '../../../../../src/services/limits.js';

function refusal(raw: unknown): { status: number; code: string; message: string } {
  try {
    jsonOfBody(raw);
  } catch (e) {
    expect(e).toBeInstanceOf(FelderaError);
    const body = (e as FelderaError).body() as { error_code: string; message: string };
    return { status: (e as FelderaError).status, code: body.error_code, message: body.message };
  }
  throw new Error('not refused');
}

describe('jsonOfBody', () => {
  it('reads bytes, text and no body (null)', () => {
    expect(jsonOfBody(Buffer.from(' {"a": [1, 2]} '))).toEqual({ a: [1, 2] });
    expect(jsonOfBody('"x"')).toBe('x');
    for (const none of [undefined, null, '', '  \n']) expect(jsonOfBody(none)).toBeNull();
  });

  it('refuses bad JSON in the parser words', () => {
    const r = refusal('{"a": }');
    expect(r.status).toBe(400);
    expect(r.message).toMatch(/^Json deserialize error: Unexpected token/);
  });

  it('refuses a body nested too deep before parsing it', () => {
    const r = refusal('['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1));
    expect(r).toMatchObject({ status: 400, message: `Json deserialize error: the body nests deeper than ${MAX_JSON_DEPTH} levels of arrays and objects` });
  });
});

describe('jsonBodyText', () => {
  const req = (body: unknown) => ({ body }) as FastifyRequest;

  it('is the checked text, `null` included; null when there is no body', () => {
    expect(jsonBodyText(req(Buffer.from(' {"x": 12345678901234567890} ')))).toBe('{"x": 12345678901234567890}');
    expect(jsonBodyText(req('null'))).toBe('null');
    expect(jsonBodyText(req(undefined))).toBeNull();
    expect(() => jsonBodyText(req('[1,'))).toThrow(FelderaError);
  });

  it('bodyText turns any body into text', () => {
    expect(bodyText(Buffer.from('a'))).toBe('a');
    expect(bodyText(undefined)).toBe('');
  });
});
