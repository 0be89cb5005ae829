/**
 * Error responses of the pipeline API: `{message, error_code, details}` as Feldera's ErrorResponse
 * (v0.24 era). Every error the routes raise is a FelderaError; the service's error handler serialises it.
 */

import type { ErrorBody } from '../../../wire/pipelines.js';

export type { ErrorBody };

export class FelderaError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
    public readonly details: unknown = null,
    public readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'FelderaError';
  }

  body(): ErrorBody {
    return { message: this.message, error_code: this.code, details: this.details };
  }
}

const SHUTDOWN_HINT = "Shutdown the pipeline first by invoking the '/shutdown' endpoint.";

export const Errors = {
  unknownPipeline: (name: string) => new FelderaError(404, 'UnknownPipelineName', `Unknown pipeline name '${name}'`, { pipeline_name: name }),
  duplicateName: () => new FelderaError(409, 'DuplicateName', 'An entity with this name already exists'),
  emptyName: () => new FelderaError(400, 'EmptyName', 'Name cannot be be empty'),
  invalidName: (name: string) =>
    new FelderaError(400, 'InvalidNameParam', `Invalid pipeline name '${name}': use 1 to 100 characters among letters, digits, '-' and '_', starting and ending with a letter or digit`, {
      value: name,
    }),
  cannotUpdateNonShutdown: () => new FelderaError(400, 'CannotUpdateNonShutdownPipeline', `Cannot update a pipeline which is not fully shutdown. ${SHUTDOWN_HINT}`),
  cannotDeleteNonShutdown: () => new FelderaError(400, 'CannotDeleteNonShutdownPipeline', `Cannot delete a pipeline which is not fully shutdown. ${SHUTDOWN_HINT}`),
  cannotRename: (urlName: string, bodyName: string) =>
    new FelderaError(
      400,
      'CannotRenameNonExistingPipeline',
      `The pipeline name in the body ('${bodyName}') differs from the name in the URL ('${urlName}'), and pipeline '${urlName}' does not exist: a pipeline that does not exist cannot be renamed`,
      { url_name: urlName, body_name: bodyName },
    ),
  programNotYetCompiled: () => new FelderaError(400, 'ProgramNotYetCompiled', "The program hasn't been compiled yet"),
  programFailedToCompile: () => new FelderaError(400, 'ProgramFailedToCompile', 'The program did not compile successfully'),
  illegalTransition: (status: string, desired: string, requested: string, hint: string) =>
    new FelderaError(400, 'IllegalPipelineStateTransition', `Deployment status (current: '${status}', desired: '${desired}') cannot have desired changed to '${requested}'. ${hint}`, {
      hint,
      status,
      desired_status: desired,
      requested_desired_status: requested,
    }),
  invalidAction: (action: string) =>
    new FelderaError(
      400,
      'InvalidPipelineAction',
      `Invalid pipeline action '${action}'; valid actions are: 'start', 'pause', 'shutdown', 'stop', 'resume', 'clear', 'dismiss_error', 'start_transaction', 'commit_transaction', 'update_runtime' or 'start_compaction'`,
      { action },
    ),
  notRunning: (id: string, name: string) =>
    new FelderaError(400, 'PipelineNotRunningOrPaused', `Pipeline ${id} is not currently running or paused.`, {
      pipeline_id: id,
      pipeline_name: name,
    }),
  initializing: () => new FelderaError(503, 'Initializing', 'Operation failed because the pipeline has not finished initializing.'),
  terminating: () => new FelderaError(503, 'Terminating', 'Operation failed because the pipeline is shutting down.'),
  unknownInputStream: (endpoint: string, table: string) =>
    new FelderaError(404, 'UnknownInputStream', `Input endpoint '${endpoint}' specifies unknown table '${table}'`, {
      endpoint_name: endpoint,
      stream_name: table,
    }),
  unknownOutputStream: (endpoint: string, view: string) =>
    new FelderaError(404, 'UnknownOutputStream', `Output endpoint '${endpoint}' specifies unknown output stream '${view}'`, {
      endpoint_name: endpoint,
      stream_name: view,
    }),
  /** send_snapshot=true on a relation without an integrated trace (Feldera's code, status and wording, with the way out). */
  snapshotNeedsMaterialized: (endpoint: string, relation: string) => {
    const error = "'send_snapshot: true' requires a materialized output view";
    return new FelderaError(
      400,
      'ConfigError.InvalidTransportConfig',
      `invalid transport configuration for endpoint '${endpoint}': ${error}; '${relation}' is not materialized (declare it CREATE MATERIALIZED VIEW, or a table WITH ('materialized' = 'true')), or watch without send_snapshot`,
      { config_error: { endpoint_name: endpoint, error } },
    );
  },
  unknownInputFormat: (format: string) =>
    new FelderaError(400, 'UnknownInputFormat', `Unknown input format '${format}'; valid formats are 'json', 'csv' and 'parquet'`, {
      format_name: format,
    }),
  unknownOutputFormat: (format: string) =>
    new FelderaError(400, 'UnknownOutputFormat', `Unknown output format '${format}'; valid formats are 'json' and 'csv'`, {
      format_name: format,
    }),
  parserConfig: (message: string) => new FelderaError(400, 'ParserConfigError', message, null),
  badParam: (param: string, value: string, expected: string) =>
    new FelderaError(400, 'InvalidQueryParameter', `Invalid value '${value}' for query parameter '${param}': expected ${expected}`, {
      param,
      value,
    }),
  badBody: (message: string) => new FelderaError(400, 'InvalidRequestBody', message),
  notFound: (method: string, url: string) => new FelderaError(404, 'NotFound', `No route for ${method} ${url}`, { method, url }),
  unauthorized: (message: string) => new FelderaError(401, 'Unauthorized', message, null, { 'www-authenticate': 'Bearer' }),
  invalidApiKey: () => new FelderaError(401, 'InvalidApiKey', 'Unauthorized: the API key is not valid', null, { 'www-authenticate': 'Bearer' }),
  pipelineLimit: (cap: number) =>
    new FelderaError(403, 'PipelineLimitReached', `This server holds at most ${cap} pipelines: delete one first (ops serve --max-pipelines sets the cap)`, { max_pipelines: cap }),
  tooManyAuthFailures: (retryAfter: number) =>
    new FelderaError(429, 'TooManyFailedAuthentications', `Too many wrong API keys from this client: try again in ${retryAfter} s`, { retry_after: retryAfter }, { 'retry-after': String(retryAfter) }),
  unknownApiKey: (name: string) => new FelderaError(404, 'UnknownApiKey', `Unknown API key '${name}'`, { name }),
};
