/**
 * The contract between `ops serve` (src/services/server.ts) and each service it hosts.
 * A service is a module whose default export is a ServiceModule. The host registers each
 * service inside its own encapsulated fastify context (its own content-type parsers, error
 * handler and hooks), under its prefix.
 */
import type { FastifyInstance, FastifyBaseLogger } from 'fastify';
import type { ConnectionTimeouts } from './connections.js';
import type { EventBus } from './events.js';

export interface ServeOptions {
  host: string;
  port: number;
  dataDir: string;
  /** Requests per minute per token for the bookmark API ("N" or LinkAce's "N,M" form). */
  apiRateLimit?: string;
  /** Multiplier applied to webhook retry delays (1 = real schedule; 0.001 = demo/test speed). */
  retryScale?: number;
  /** Require `Authorization: Bearer apikey:...` on the pipeline API. */
  pipelinesAuth?: boolean;
  /**
   * Casing of unquoted pipeline output names, for every client, where program_config.output_case does not say;
   * unset: each pipeline's creating client's (upper for v0.24's and the CLI, lower for today's; client-api.ts).
   */
  outputCase?: 'upper' | 'lower';
  /**
   * Pipeline objects for every client in v0.24's shape or today's (`current`: Stopped/Stopping, program_error,
   * storage_status); unset: each client's own (client-api.ts). `ops serve --feldera` sets this and outputCase.
   */
  pipelineApi?: 'v0.24' | 'current';
  /** Allow guests to read public bookmarks without a token. */
  guestAccess?: boolean;
  /** Start with demo content. */
  demo?: boolean;
  /** Where the JSON log (OPS_LOG_LEVEL) goes instead of stdout (tests read it). */
  logStream?: { write(line: string): void };
  /** Called with one line per answered request (`--log-requests`). */
  requestLog?: (line: string) => void;
  /**
   * What the server's own outbound requests may reach (services/net/fetch-policy.ts). startServer
   * resolves the default (`any` on a loopback bind, `public` otherwise) before services see it.
   */
  fetchPolicy?: 'public' | 'any';
  /** The only directory pipeline file connectors may read and write (default <data-dir>/files). */
  connectorRoot?: string;
  /** The server's timeouts for slow clients (connections.ts; tests set small ones). */
  connectionTimeouts?: ConnectionTimeouts;
  /** How long a response still being written may go on once the server closes (connections.ts). */
  closeGraceMs?: number;
  /** Limits of an ad-hoc pipeline query: its time, the rows it builds, its answer's bytes (pipelines/shared/query-limits.ts). */
  queryTimeoutMs?: number;
  queryMaxRows?: number;
  queryMaxBytes?: number;
  /** Stores to start empty if they are damaged (the damaged file is moved aside): `ops serve --reset-store`. */
  resetStores?: ('bookmarks' | 'pipelines' | 'notifications')[];
  /** Wrong credentials per minute per client address (and token prefix) before 429 (auth-throttle.ts; default 30). */
  authFailuresPerMinute?: number;
  /** Caps (limits.ts DEFAULT_CAPS): webhook registrations, pipelines, open connections. */
  maxWebhooks?: number;
  maxPipelines?: number;
  maxConnections?: number;
  /** Free-form extra options for services (set by flags that only one service reads). */
  [k: string]: unknown;
}

export interface ServiceContext {
  /** Directory this service may use for its own files (created by the host). */
  dataDir: string;
  options: ServeOptions;
  log: FastifyBaseLogger;
  events: EventBus;
  /** The base URL the server listens on, known once listening (e.g. http://127.0.0.1:8700). */
  baseUrl(): string;
}

export interface ServiceHealth {
  status: 'ok' | 'degraded' | 'down';
  [k: string]: unknown;
}

/** Credentials a service hands to the host to write into the `local` CLI profile. */
export interface LocalCredentials {
  /** bookmark API token */
  bmToken?: string;
  /** pipeline API key (apikey:...) when auth is on */
  pipeApiKey?: string;
  /** notification service API key */
  notifyApiKey?: string;
}

/** The services that have admin actions (`ops serve user|token` on bookmarks, `ops serve key` on notifications). */
export type AdminServiceName = 'bookmarks' | 'notifications';

/** Admin actions by name (e.g. `user.add`): JSON arguments in, JSON out; see services/admin-actions.ts. */
export type AdminActions = Record<string, (args: Record<string, unknown>) => unknown>;

export interface ServiceHandle {
  health(): Promise<ServiceHealth> | ServiceHealth;
  /** What `ops serve user|token|key` may do to this service while it runs (through the admin route). */
  admin?: AdminActions;
  /** Credentials for the local profile; only those created now (plaintext is shown once) or still known. */
  localCredentials?(): LocalCredentials | Promise<LocalCredentials>;
  /** Called after the server is listening (start background workers here). */
  started?(): Promise<void> | void;
  /** What the service did at start that its user should hear of (e.g. pipelines started again), one line each; asked after started(). */
  notes?(): string[];
  /** Stop workers, close storage. Called once on shutdown, after in-flight requests finished. */
  close(): Promise<void> | void;
}

export interface ServiceModule {
  name: 'bookmarks' | 'pipelines' | 'notifications';
  /** Route prefix for fastify registration ('' for bookmarks, which owns /api/... and /openapi.json). */
  prefix: string;
  register(app: FastifyInstance, ctx: ServiceContext): Promise<ServiceHandle>;
}
