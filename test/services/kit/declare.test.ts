/** services/kit/declare.ts: one declaration gives the checker (order of problems, defaults), the value and the schema. */
import { describe, expect, it } from 'vitest';
import { alsoDocuments, field, objectOf, optional, withDefault } from '../../../src/services/kit/declare.js';
import { Problems, ValidationError } from '../../../src/services/kit/errors.js';

const name = field<string>({ type: 'string', minLength: 1 }, (v, fail) => (typeof v === 'string' && v !== '' ? v : fail('must be a name')));
const size = field<number>({ type: 'integer' }, (v, fail) => (Number.isInteger(v) ? (v as number) : fail('must be an integer')));

const shape = objectOf(
  { name, size: optional(size), page: withDefault(size, 1) },
  {
    notObject: 'must be an object with a name',
    unknownField: (allowed) => `unknown (allowed: ${allowed.join(', ')})`,
    refine: (value, _input, problems) => {
      if (value.size !== undefined && value.size > 10) problems.add('size', 'is more than 10');
    },
  },
);

function problemsOf(input: unknown) {
  try {
    shape.check(input);
  } catch (e) {
    expect(e).toBeInstanceOf(ValidationError);
    return (e as ValidationError).errors;
  }
  throw new Error('no problem found');
}

describe('objectOf', () => {
  it('gives the value: required and defaulted fields there, absent optional ones left out', () => {
    const v = shape.check({ name: 'a' });
    expect(v).toEqual({ name: 'a', page: 1 });
    expect('size' in v).toBe(false);
    // the type: name and page are always there, size may be
    const typed: { name: string; page: number; size?: number } = shape.check({ name: 'b', size: 3, page: 2 });
    expect(typed).toEqual({ name: 'b', size: 3, page: 2 });
  });

  it('reports unknown keys first, then fields in declared order, then rules across fields; all at once', () => {
    const errors = problemsOf({ page: 'x', size: 'y', zed: 1, name: '' });
    expect(Object.keys(errors)).toEqual(['zed', 'name', 'size', 'page']);
    expect(errors).toEqual({ zed: ['unknown (allowed: name, size, page)'], name: ['must be a name'], size: ['must be an integer'], page: ['must be an integer'] });
    expect(problemsOf({ name: 'a', size: 11 })).toEqual({ size: ['is more than 10'] });
  });

  it('refuses input that is not an object under `body`, with the message given', () => {
    for (const input of [undefined, null, [], 'text', 3]) expect(problemsOf(input)).toEqual({ body: ['must be an object with a name'] });
  });

  it('a ValidationError says every problem in its message', () => {
    expect(new ValidationError({ a: ['x', 'y'], b: ['z'] }).message).toBe('a: x; y; b: z');
  });

  it('precheck refuses keys before anything else is read', () => {
    const q = objectOf({ size: optional(size) }, { precheck: (input, problems) => void (input.old !== undefined && problems.add('old', 'is gone')) });
    let errors: unknown;
    try {
      q.check({ old: 1, size: 'x' });
    } catch (e) {
      errors = (e as ValidationError).errors;
    }
    expect(errors).toEqual({ old: ['is gone'] });
    // a query-like object without notObject: absent input reads as {}
    expect(q.check(undefined)).toEqual({});
  });

  it("collect adds to a caller's problems without throwing, after what is there, and nests names under a prefix", () => {
    const problems = new Problems({ earlier: ['first'] });
    const value = shape.collect({ name: 'a', size: 'x', extra: 1 }, problems, 'models.3.');
    expect(value).toEqual({ name: 'a', page: 1 });
    expect(problems.errors).toEqual({ earlier: ['first'], 'models.3.extra': ['unknown (allowed: name, size, page)'], 'models.3.size': ['must be an integer'] });
    problems.add('models.3.name', 'has already been taken');
    expect(() => problems.throwIfAny()).toThrow(ValidationError);
  });

  it('collect hands the field its nested name, so its messages can say it', () => {
    const named = objectOf({ url: field<string>({}, (v, fail, key) => (typeof v === 'string' ? v : fail(`The ${key} must be a string.`))) });
    const problems = new Problems();
    named.collect({ url: 1 }, problems, 'models.0.');
    expect(problems.errors).toEqual({ 'models.0.url': ['The models.0.url must be a string.'] });
  });

  it('collect puts a non-object under the prefixed `body`', () => {
    const problems = new Problems();
    expect(shape.collect([1], problems, 'models.1.')).toEqual({});
    expect(problems.errors).toEqual({ 'models.1.body': ['must be an object with a name'] });
  });

  it('documents what it checks as JSON Schema', () => {
    expect(shape.schema).toEqual({
      type: 'object',
      properties: { name: { type: 'string', minLength: 1 }, size: { type: 'integer' }, page: { type: 'integer', default: 1 } },
      required: ['name'],
      additionalProperties: false,
    });
  });

  it('Problems.first names the first field found and its first message', () => {
    const problems = new Problems();
    expect(problems.first()).toBeUndefined();
    shape.collect({ name: '', size: 'x', page: 'y' }, problems);
    expect(problems.first()).toEqual({ field: 'name', message: 'must be a name' });
  });
});

describe('alsoDocuments', () => {
  const later = objectOf({ size: optional(size) });
  const first = alsoDocuments(objectOf({ name }), later);

  it('checks as the first declaration alone', () => {
    expect(first.check({ name: 'a', size: 'not checked here' })).toEqual({ name: 'a' });
    expect(() => first.check({})).toThrow(ValidationError);
  });

  it("lists the later declarations' fields in its schema", () => {
    expect(first.schema).toEqual({ type: 'object', properties: { name: { type: 'string', minLength: 1 }, size: { type: 'integer' } }, required: ['name'] });
  });
});
