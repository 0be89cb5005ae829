import { describe, expect, it } from 'vitest';
import { EVENT_TYPES, createEnvelope, isEventType, parseEnvelope, samplePayload, serializeEnvelope } from '../../src/webhooks/envelope.js';

describe('envelope', () => {
  it('has id, type, ISO UTC timestamp and data, serialised in that order', () => {
    const env = createEnvelope('user.created', { id: '1' }, { now: Date.UTC(2026, 0, 2, 3, 4, 5), id: 'evt_x' });
    expect(serializeEnvelope(env).toString()).toBe('{"id":"evt_x","type":"user.created","timestamp":"2026-01-02T03:04:05.000Z","data":{"id":"1"}}');
  });

  it('gives every event its own id', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => createEnvelope('tag.created', {}).id));
    expect(ids.size).toBe(1000);
    expect([...ids][0]).toMatch(/^evt_[0-9a-f]{24}$/);
  });

  it('parses and rejects bodies without throwing', () => {
    expect(parseEnvelope('{"id":"a","type":"t","timestamp":"x","data":{"k":1}}')).toEqual({
      ok: true,
      envelope: { id: 'a', type: 't', timestamp: 'x', data: { k: 1 } },
    });
    expect(parseEnvelope('not json')).toEqual({ ok: false, error: 'the body is not valid JSON' });
    expect(parseEnvelope('[]').ok).toBe(false);
    expect(parseEnvelope('null').ok).toBe(false);
    expect(parseEnvelope('{"type":"t"}').ok).toBe(false);
    expect(parseEnvelope('{"id":1,"type":"t"}').ok).toBe(false);
    expect(parseEnvelope('{"id":"a","type":"t","data":5}').ok).toBe(false);
    // data is an object (description 3), not an array
    expect(parseEnvelope('{"id":"a","type":"t","timestamp":"x","data":[1,2]}')).toEqual({
      ok: false,
      error: 'envelope field "data" must be an object',
    });
    expect(parseEnvelope(Buffer.from([0xff, 0xfe])).ok).toBe(false);
  });

  it('has a sample payload for every type, as the description says', () => {
    for (const t of EVENT_TYPES) expect(isEventType(t)).toBe(true);
    expect(isEventType('nope')).toBe(false);
    const user = samplePayload('user.created');
    expect(Object.keys(user).sort()).toEqual(['createdAt', 'email', 'id', 'name']);
    expect(typeof user.id).toBe('string');
    expect(samplePayload('user.deleted')).toEqual({ id: user.id });
    const pay = samplePayload('payment.completed');
    expect(pay).toMatchObject({ amount: expect.any(Number), orderId: expect.any(String), customerId: expect.any(String) });
    expect(samplePayload('payment.failed')).toHaveProperty('error');
  });
});
