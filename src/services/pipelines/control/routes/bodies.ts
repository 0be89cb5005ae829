/**
 * The JSON bodies of the pipeline routes as declarations (services/kit/declare.ts): POST /pipelines, PUT and
 * PATCH /pipelines/{name}, POST /validate_program. Each gives the route its checker, its handler's type and its
 * OpenAPI body schema.
 *
 * As Feldera deserializes a body with serde, the first bad field answers alone: each field throws the manager's
 * 400 InvalidRequestBody (`Json deserialize error: ...`) as it is read, in the declared order, and the kit's
 * collected problems are never reached. Lenient where serde is: unknown keys pass (v0.24's SDK and today's send
 * different sets), null Option fields are absent, no body is "not an object". Today's SDK-only fields (`udf_rust`,
 * `udf_toml`, `tags`) are kept as sent: they mark today's clients (client-api.ts) and are otherwise unused.
 */
import { field, objectOf, optional, withDefault, isObject, type Field, type JsonSchema } from '../../../kit/declare.js';
import { Errors } from '../../shared/errors.js';
import { clockConfigError } from '../../shared/clock.js';
import { jsonOfBody } from './request-body.js';

type Json = Record<string, unknown>;

const deserialize = (message: string): never => {
  throw Errors.badBody(`Json deserialize error: ${message}`);
};

/** The raw body (bytes) parsed as JSON, refusing anything that is not an object with `notObject`. */
const jsonObject =
  (notObject: string) =>
  (raw: unknown): Json => {
    const value = jsonOfBody(raw);
    return isObject(value) ? value : deserialize(notObject);
  };

/** A string; `missing` words an absent one (serde's "missing field"), else it is a wrong type. */
function text(missing?: (name: string) => string): Field<string, false> {
  return field<string>({ type: 'string' }, (v, _fail, name) => {
    if (typeof v === 'string') return v;
    return deserialize(v === undefined && missing ? missing(name) : `field '${name}' must be a string`);
  });
}

/** An Option<String>: null reads as absent. */
const nullableText = (): Field<string | undefined, true> =>
  optional(field<string | undefined>({ type: ['string', 'null'] }, (v, _fail, name) => (v === null ? undefined : typeof v === 'string' ? v : deserialize(`field '${name}' must be a string`))));

/** An object (an Option of one: null reads as `{}` or absent), then checked by `deep`. */
function object(schema: JsonSchema, deep: (value: Json) => void = () => {}): Field<Json, false> {
  return field<Json>({ type: ['object', 'null'], ...schema }, (v, _fail, name) => {
    if (v === null) return {};
    if (!isObject(v)) return deserialize(`field '${name}' must be an object`);
    deep(v);
    return v;
  });
}

/** Any JSON value, kept as sent. */
const accepted = (description: string): Field<unknown, true> => optional(field<unknown>({ description }, (v) => v));

const todaysFields = {
  udf_rust: accepted("Rust UDF code (today's SDK sends it; not compiled here)"),
  udf_toml: accepted("Rust UDF dependencies (today's SDK sends it; unused here)"),
  tags: accepted("tags (today's SDK and fda send them; unused here)"),
};

/** Our own setting `output_case` takes 'upper' or 'lower' (null or absent: 'upper'); anything else would be silently ignored. */
export function checkProgramConfig(pc: Json): void {
  const v = pc.output_case;
  if (v !== undefined && v !== null && v !== 'upper' && v !== 'lower') deserialize(`field 'program_config.output_case' must be "upper" or "lower", not ${JSON.stringify(v)}`);
}

export function checkRuntimeConfig(rc: Json): void {
  if (rc.workers !== undefined && (typeof rc.workers !== 'number' || !Number.isInteger(rc.workers) || rc.workers < 1 || rc.workers > 1024))
    deserialize("field 'runtime_config.workers' must be an integer between 1 and 1024");
  const resources = rc.resources;
  if (resources !== undefined && resources !== null && !isObject(resources)) deserialize("field 'runtime_config.resources' must be an object");
  const mem = isObject(resources) ? resources.memory_mb_max : undefined;
  if (mem !== undefined && mem !== null && (typeof mem !== 'number' || !Number.isInteger(mem) || mem < 1 || mem > 1_048_576))
    deserialize("field 'runtime_config.resources.memory_mb_max' must be null or a whole number of MiB between 1 and 1048576");
  const clock = clockConfigError(rc);
  if (clock !== null) deserialize(clock);
}

const RUNTIME_CONFIG = { description: 'workers, resources.memory_mb_max, clock_resolution_usecs, ... (unknown keys kept)' };
const PROGRAM_CONFIG = { description: "the compiler's settings (output_case: upper | lower)" };

/** A whole pipeline definition; `name` is required on POST, on PUT it defaults to the URL's. */
function pipelineBody<N extends Field<string, boolean>>(name: N) {
  return objectOf(
    {
      name,
      program_code: text((n) => `missing field \`${n}\``),
      description: withDefault(
        field<string>({ type: ['string', 'null'] }, (v, _fail, name) => (v === null ? '' : typeof v === 'string' ? v : deserialize(`field '${name}' must be a string`))),
        '',
      ),
      runtime_config: withDefault(object(RUNTIME_CONFIG, checkRuntimeConfig), {}),
      program_config: withDefault(object(PROGRAM_CONFIG, checkProgramConfig), {}),
      ...todaysFields,
    },
    { normalize: jsonObject('expected a JSON object with the pipeline fields') },
  );
}

/** POST /pipelines. */
export const createBody = pipelineBody(text());
/** PUT /pipelines/{name}. */
export const replaceBody = pipelineBody(optional(text()));

/** PATCH /pipelines/{name}: the fields given (null: left as it is); the configs' contents are checked after every field's type. */
export const patchBody = objectOf(
  {
    name: nullableText(),
    description: nullableText(),
    program_code: nullableText(),
    runtime_config: optional(object(RUNTIME_CONFIG)),
    program_config: optional(object(PROGRAM_CONFIG)),
    ...todaysFields,
  },
  {
    normalize: jsonObject('expected a JSON object'),
    refine: (value, input) => {
      // null configs are left as they are, not emptied
      if (input.runtime_config === null) delete value.runtime_config;
      if (input.program_config === null) delete value.program_config;
      if (value.runtime_config) checkRuntimeConfig(value.runtime_config);
      if (value.program_config) checkProgramConfig(value.program_config);
    },
  },
);

const MISSING_PROGRAM = "missing field 'program_code' (a string)";

/** POST /validate_program: anything but an object with a string `program_code` is "missing" it. */
export const validateProgramBody = objectOf(
  {
    program_code: text(() => MISSING_PROGRAM),
    ir: optional(
      field<boolean | undefined>({ type: ['boolean', 'null'] }, (v, _fail, name) => (v === null ? undefined : typeof v === 'boolean' ? v : deserialize(`field '${name}' must be a boolean`))),
    ),
  },
  {
    normalize: (raw) => {
      const value = jsonOfBody(raw);
      if (!isObject(value) || typeof value.program_code !== 'string') deserialize(MISSING_PROGRAM);
      return value;
    },
  },
);
