/**
 * Checks recorded HTTP traffic against an OpenAPI 3 document (the contract copies beside this file).
 *
 * Requests (ContractChecker): the
 * operation exists, required parameters are present, every query value parses as its declared type and
 * passes its schema, no undeclared query parameter is sent (unless the document's `x-accepted-extra-query`
 * names it), the body's media type is declared and a JSON body passes its schema. Answers the violations as
 * sentences, one per problem; an empty list is a request within the contract.
 *
 * Answers (AnswerChecker): the operation exists, the status is one it declares (exactly, or as `4XX`/`5XX`), and a
 * JSON body passes the declared schema, read as OpenAPI 3.0 reads it (`nullable`; schemas may refer to
 * themselves, as ColumnType does). A response marked `x-stream: ndjson` (a streamed answer such as egress) has
 * each of its lines checked as one value of the schema.
 */
import { Ajv, type ValidateFunction } from 'ajv';

type Obj = Record<string, any>;

export interface WireRequest {
  method: string;
  /** The path as sent (percent-encoded). */
  path: string;
  query: Iterable<[string, string]>;
  /** The raw body text ('' or undefined when none). */
  body?: string;
  contentType?: string;
}

interface Operation {
  template: string;
  match: RegExp;
  names: string[];
  op: Obj;
  params: Obj[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

export class ContractChecker {
  private readonly ops: Operation[] = [];
  private readonly ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  private readonly compiled = new Map<object, ValidateFunction>();
  private readonly extraQuery: Set<string>;
  private readonly probes: Set<string>;

  constructor(readonly doc: Obj) {
    for (const [template, item] of Object.entries<Obj>(doc.paths)) {
      const names: string[] = [];
      const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{([^}]+)\\?\}/g, (_m, name: string) => {
        names.push(name);
        return '([^/]+)';
      });
      const match = new RegExp(`^${pattern.replace(/\\\{|\\\}/g, '')}$`);
      for (const method of METHODS) {
        const op = item[method];
        if (!op) continue;
        const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: Obj) => this.deref(p));
        this.ops.push({ template: `${method.toUpperCase()} ${template}`, match, names, op, params });
      }
    }
    this.extraQuery = new Set(doc.info?.['x-accepted-extra-query']?.names ?? []);
    this.probes = new Set(doc.info?.['x-accepted-probes']?.paths ?? []);
  }

  /** `$ref`s resolved, recursively (the contract copies have no cycles). */
  deref(node: any): any {
    if (Array.isArray(node)) return node.map((n) => this.deref(n));
    if (!node || typeof node !== 'object') return node;
    if (typeof node.$ref === 'string') {
      const target = node.$ref
        .replace(/^#\//, '')
        .split('/')
        .reduce((at: Obj | undefined, key: string) => at?.[key], this.doc);
      if (!target) throw new Error(`unresolved $ref ${node.$ref}`);
      return this.deref(target);
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, this.deref(v)]));
  }

  /** The operation a request is for ("METHOD /template"), or undefined. */
  operationOf(method: string, path: string): string | undefined {
    return this.find(method, path)?.template;
  }

  private find(method: string, path: string): Operation | undefined {
    const m = method.toUpperCase();
    return this.ops.find((o) => o.template.startsWith(`${m} `) && o.match.test(path));
  }

  private validator(schema: object): ValidateFunction {
    let v = this.compiled.get(schema);
    if (!v) {
      v = this.ajv.compile(schema);
      this.compiled.set(schema, v);
    }
    return v;
  }

  check(req: WireRequest): string[] {
    const where = `${req.method} ${req.path}`;
    if (this.probes.has(req.path)) return [];
    const op = this.find(req.method, req.path);
    if (!op) return [`${where}: no such operation in the contract`];
    const problems: string[] = [];
    const query = new Map<string, string>();
    for (const [k, v] of req.query) query.set(k, v);
    const declared = new Set(op.params.filter((p) => p.in === 'query').map((p) => p.name));
    for (const p of op.params) {
      if (p.in === 'query') {
        const raw = query.get(p.name);
        if (raw === undefined) {
          if (p.required) problems.push(`${where}: required query parameter "${p.name}" is missing`);
          continue;
        }
        const value = fromQuery(raw, p.schema ?? {});
        if (value === INVALID) {
          problems.push(`${where}: query parameter "${p.name}"="${raw}" is not a ${p.schema?.type}`);
          continue;
        }
        const v = this.validator(p.schema ?? {});
        if (!v(value)) problems.push(`${where}: query parameter "${p.name}"="${raw}": ${this.ajv.errorsText(v.errors)}`);
      }
    }
    for (const name of query.keys()) {
      if (!declared.has(name) && !this.extraQuery.has(name)) problems.push(`${where}: query parameter "${name}" is not a parameter of ${op.template}`);
    }
    const hasBody = req.body !== undefined && req.body !== '';
    const content: Obj | undefined = op.op.requestBody?.content;
    if (!content) {
      if (hasBody) problems.push(`${where}: sends a body, but ${op.template} takes none`);
      return problems;
    }
    if (!hasBody) {
      if (op.op.requestBody.required) problems.push(`${where}: the request body is required`);
      return problems;
    }
    const media = (req.contentType ?? '').split(';')[0]!.trim().toLowerCase();
    const entry = content[media];
    if (!entry) {
      problems.push(`${where}: body sent as "${media || '(no Content-Type)'}"; ${op.template} takes ${Object.keys(content).join(', ')}`);
      return problems;
    }
    if (media === 'application/json' && entry.schema) {
      let body: unknown;
      try {
        body = JSON.parse(req.body!);
      } catch {
        problems.push(`${where}: the body is not JSON`);
        return problems;
      }
      const v = this.validator(this.deref(entry.schema));
      if (!v(body)) problems.push(`${where}: body: ${this.ajv.errorsText(v.errors, { dataVar: 'body' })}`);
    }
    return problems;
  }
}

const INVALID = Symbol('invalid');

/** A query string value read as its schema's type, as a strict server would. */
function fromQuery(raw: string, schema: Obj): unknown {
  switch (schema.type) {
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : INVALID;
    case 'integer':
      return /^-?\d+$/.test(raw) ? Number(raw) : INVALID;
    case 'number':
      return raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : INVALID;
    default:
      return raw;
  }
}

export interface WireAnswer {
  method: string;
  path: string;
  status: number;
  /** The body text ('' when none). */
  body: string;
  contentType?: string;
}

/** OpenAPI 3.0 schema text as JSON Schema: `nullable: true` as "or null", component refs into `contract#/definitions`. */
function jsonSchemaOf(node: any): any {
  if (Array.isArray(node)) return node.map(jsonSchemaOf);
  if (!node || typeof node !== 'object') return node;
  const out: Obj = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'nullable' || k === 'example' || k === 'description') continue;
    if (k === '$ref' && typeof v === 'string') out.$ref = v.replace(/^#\/components\/schemas\//, 'contract#/definitions/');
    else out[k] = jsonSchemaOf(v);
  }
  return node.nullable === true ? { anyOf: [out, { type: 'null' }] } : out;
}

export class AnswerChecker {
  private readonly ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  private readonly ops: { method: string; match: RegExp; template: string; op: Obj }[] = [];
  private readonly compiled = new Map<object, ValidateFunction>();

  constructor(readonly doc: Obj) {
    this.ajv.addSchema({ $id: 'contract', definitions: jsonSchemaOf(doc.components?.schemas ?? {}) });
    for (const [template, item] of Object.entries<Obj>(doc.paths)) {
      const match = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`);
      for (const method of METHODS) if (item[method]) this.ops.push({ method: method.toUpperCase(), match, template, op: item[method] });
    }
  }

  /** The operations of the document (so a test can say which it exercised). */
  operations(): string[] {
    return this.ops.map((o) => `${o.method} ${o.template}`);
  }

  operationOf(method: string, path: string): string | undefined {
    const o = this.ops.find((x) => x.method === method.toUpperCase() && x.match.test(path.split('?')[0]!));
    return o && `${o.method} ${o.template}`;
  }

  check(a: WireAnswer): string[] {
    const where = `${a.method} ${a.path} -> ${a.status}`;
    const op = this.ops.find((x) => x.method === a.method.toUpperCase() && x.match.test(a.path.split('?')[0]!));
    if (!op) return [`${where}: no such operation in the contract`];
    const responses: Obj = op.op.responses ?? {};
    const declared = responses[String(a.status)] ?? responses[`${String(a.status)[0]}XX`];
    if (!declared) return [`${where}: status ${a.status} is not one ${op.method} ${op.template} answers (${Object.keys(responses).join(', ')})`];
    const schema = declared.content?.['application/json']?.schema;
    if (!schema) return [];
    // a streamed answer (`x-stream: ndjson`, as egress): every non-empty line is one value of the schema
    const values = declared['x-stream'] === 'ndjson' ? a.body.split('\n').filter((l) => l.trim() !== '') : [a.body];
    const problems: string[] = [];
    for (const [i, text] of values.entries()) {
      const at = values.length > 1 ? `${where} (line ${i + 1})` : where;
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        problems.push(`${at}: the body is not JSON: ${text.slice(0, 80)}`);
        continue;
      }
      let v = this.compiled.get(schema);
      if (!v) {
        v = this.ajv.compile(jsonSchemaOf(schema));
        this.compiled.set(schema, v);
      }
      if (!v(body)) problems.push(`${at}: ${this.ajv.errorsText(v.errors, { dataVar: 'answer' })}`);
    }
    return problems;
  }
}
