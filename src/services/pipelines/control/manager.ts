/**
 * The lifecycle manager: pipeline definitions (persisted), compilation on create and on code change
 * (compile-jobs.ts), and deployment
 * (Shutdown -> Provisioning -> Initializing -> Paused -> Running, pause, shutdown). A running
 * pipeline keeps the program it was started with until it is shut down and started again.
 *
 * Each deployed pipeline runs in a worker thread of its own (host.ts) with a heap limit from
 * runtime_config.resources.memory_mb_max. A pipeline that fails to start, runs out of memory, or whose
 * worker throws or exits goes to Failed with a deployment_error (as Feldera v0.24); `/shutdown`
 * acknowledges it and returns the pipeline to Shutdown. Other pipelines are not affected.
 *
 * Every status change is noted in the pipeline's monitor events (monitor-events.ts): noteStatus() after each
 * change of program, deployment or desired status or of the deployment error; a heartbeat repeats a deployed
 * pipeline's last event when it is HEARTBEAT_MS old.
 */
import type { WorkerConfig } from '../shared/protocol.js';
import type { QueryLimits } from '../shared/query-limits.js';
import { CompileJobs } from './compile-jobs.js';
import { CompilerPool, DEFAULT_COMPILE_MEMORY_MB, DEFAULT_COMPILE_TIMEOUT_MS, type CompilerLimits } from './compiler-pool.js';
import type { CompileReport } from '../shared/compile-protocol.js';
import { Entry } from './entry.js';
import { FelderaError, Errors, type ErrorBody } from '../shared/errors.js';
import { DEFAULT_MEMORY_MB, PipelineHost } from '../runner/host.js';
import type { LogBook, LogLevel } from '../runner/logs.js';
import { HEARTBEAT_MS, MonitorEvents } from './monitor-events.js';
import { clockSettings } from '../shared/clock.js';
import { BUDGET_CHECK_MS, defaultBudgetMb, overBudget, overBudgetError, startRefusal, type PipelineMemory } from '../runner/memory-budget.js';
import { DEFAULT_CAPS } from '../../limits.js';
import {
  defaultProgramConfig,
  defaultRuntimeConfig,
  isCompiling,
  nowIso,
  pipelineOutputCase,
  type OutputCase,
  type PipelineApi,
  uuidv7,
  type DeploymentStatus,
  type DesiredStatus,
  type PipelineRecord,
} from './model.js';
import type { PipelineStore } from './store.js';
import type { ConnectorAccess } from '../shared/connector-access.js';
import { listCheckpoints } from '../shared/storage/checkpoints.js';
import type { CheckpointDone } from '../shared/storage/storage-figures.js';
import { clearStorage, storageConfigOf, storageDirOf, storageInUse } from './storage-settings.js';

export { Entry };

export interface PipelineDescr {
  name: string;
  description: string;
  runtime_config: Record<string, unknown>;
  program_code: string;
  program_config: Record<string, unknown>;
  /** The kind of client that sent the definition (client-api.ts); a new pipeline keeps it as its own. */
  client_api?: PipelineApi;
}

export interface ManagerOptions {
  keepAliveMs: number;
  /** How many pipelines there may be (limits.ts DEFAULT_CAPS.pipelines); creating one more is 403. */
  maxPipelines?: number;
  /** Extra time spent in CompilingRust (a test knob; 0 by default). */
  compileDelayMs?: number;
  /** Time and heap limits of the SQL compiler worker. */
  compilerLimits?: Partial<CompilerLimits>;
  /**
   * Test knob: a compiler shared by the servers of one process (compilerLimits then do not apply), used as
   * it is and not closed with this server. A test process that starts a server per test spares a compiler
   * process per server so.
   */
  compiler?: CompilerPool;
  /** Per-watch-stream bounds on output written but not yet taken by the client (runner/watch.ts). */
  watchMaxChunks?: number;
  watchMaxBytes?: number;
  /** Heap limit of a pipeline's worker when its runtime_config does not set memory_mb_max. */
  defaultMemoryMb?: number;
  /** Memory of all running pipelines together, in MiB (memory-budget.ts; default: a share of the machine's). */
  memoryBudgetMb?: number;
  /** Test knob: bytes of a pipeline's ingress bodies in progress together (host.ts; default a share of its memory). */
  ingressBudgetBytes?: number;
  /** Test knob: every pipeline's worker fails on its first ingest (see WorkerConfig.fault). */
  workerFault?: WorkerConfig['fault'];
  /** Limits of ad-hoc queries (`ops serve --query-timeout`, ...; shared/query-limits.ts). */
  queryLimits?: QueryLimits;
  /**
   * Casing of unquoted output names for every pipeline whose program_config does not say (`ops serve --output-case`
   * or `--feldera`); unset, each pipeline's creating client's (model.ts pipelineOutputCase).
   */
  outputCase?: OutputCase;
  location: () => string;
  /** Monitor events kept per pipeline (default 720, as Feldera) and the heartbeat's period (a test knob). */
  eventsRetention?: number;
  eventsHeartbeatMs?: number;
  /** Where connectors may reach (connector root, fetch policy, size cap). */
  connectorAccess: ConnectorAccess;
  /** Where each pipeline's durable state is kept (`<root>/<pipeline id>`, control/storage-settings.ts); null: in memory only. */
  storageRoot?: string | null;
}

/** A pipeline whose process died unexpectedly is started again from its storage, unless it died this recently after its last such start. */
const RESTART_BACKOFF_MS = 60_000;
/** How long a graceful stop of the server waits for each pipeline's checkpoint. */
export const STOP_CHECKPOINT_TIMEOUT_MS = 60_000;

const NAME_RE = /^[A-Za-z0-9](?:[-A-Za-z0-9_]{0,98}[A-Za-z0-9])?$/;

export class PipelineManager {
  private readonly byName = new Map<string, Entry>();
  private readonly compiler: CompileJobs;
  /** Whether the compiler is this server's own (closed with it) rather than a shared one. */
  private readonly ownsCompiler: boolean;
  /** Each pipeline's monitor events (GET /v0/pipelines/{name}/events). */
  readonly events: MonitorEvents;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly budgetCheck: NodeJS.Timeout;
  private readonly memoryBudgetMb: number;
  /** Each pipeline's desired status as the store kept it (what the server's start brings it back to). */
  private readonly storedDesired: Map<string, string>;
  /** When each pipeline was last started again after its process died (the restart backoff). */
  private readonly restartedAt = new Map<string, number>();
  private closing = false;

  constructor(
    private readonly store: PipelineStore,
    private readonly logs: LogBook,
    private readonly opts: ManagerOptions,
  ) {
    this.ownsCompiler = !opts.compiler;
    const pool =
      opts.compiler ??
      new CompilerPool({
        timeoutMs: opts.compilerLimits?.timeoutMs ?? DEFAULT_COMPILE_TIMEOUT_MS,
        memoryMb: opts.compilerLimits?.memoryMb ?? DEFAULT_COMPILE_MEMORY_MB,
      });
    this.events = new MonitorEvents(opts.eventsRetention);
    this.compiler = new CompileJobs(
      store,
      logs,
      (e) => this.byName.get(e.rec.name) === e,
      pool,
      opts.compileDelayMs ?? 0,
      opts.outputCase,
      (e) => this.noteStatus(e),
    );
    this.storedDesired = store.desiredStatuses();
    for (const rec of store.all()) {
      const e = new Entry(rec);
      this.byName.set(rec.name, e);
      this.noteStatus(e);
      // An interrupted compilation starts again, as does one whose names the server's --output-case
      // now cases otherwise; other compiled programs are recompiled on demand.
      if (isCompiling(rec.program_status) || this.compiler.staleCase(e)) this.compiler.schedule(e);
    }
    this.logs.log('INFO', 'manager', 'pipeline_manager', `pipeline manager started with ${this.byName.size} pipeline(s)`);
    const heartbeatMs = opts.eventsHeartbeatMs ?? HEARTBEAT_MS;
    this.heartbeat = setInterval(() => this.repeatQuietEvents(heartbeatMs), Math.min(heartbeatMs, 60_000)).unref();
    this.memoryBudgetMb = opts.memoryBudgetMb ?? defaultBudgetMb();
    this.budgetCheck = setInterval(() => this.keepMemoryBudget(), BUDGET_CHECK_MS).unref();
  }

  /** Each running (or starting) pipeline's memory as its process last reported it (0: not reported yet). */
  private runningMemory(): (PipelineMemory & { host: PipelineHost })[] {
    const running: (PipelineMemory & { host: PipelineHost })[] = [];
    for (const e of this.byName.values()) {
      const host = e.runtime;
      if (host && host.state !== 'Terminated') running.push({ name: e.rec.name, bytes: host.metrics.process_rss_bytes, host });
    }
    return running;
  }

  /** The running pipelines over the server's memory budget together: the largest fails (memory-budget.ts). */
  private keepMemoryBudget(): void {
    const running = this.runningMemory();
    const victim = overBudget(running, this.memoryBudgetMb * 1024 * 1024);
    if (!victim) return;
    const total = running.reduce((sum, p) => sum + p.bytes, 0);
    (victim as (typeof running)[number]).host.failWith(overBudgetError(victim, total, this.memoryBudgetMb));
  }

  /** Records the pipeline's statuses as a monitor event when they changed since its last one. */
  private noteStatus(e: Entry): void {
    if (this.byName.get(e.rec.name) === e) this.events.record(e.rec, e.dep);
  }

  /** The heartbeat: a deployed pipeline whose last event is `periodMs` old records it again (as Feldera's runner). */
  private repeatQuietEvents(periodMs: number): void {
    const now = Date.now();
    for (const e of this.byName.values()) {
      const s = e.dep.deployment_status;
      if ((s === 'Initializing' || s === 'Paused' || s === 'Running') && now - this.events.lastRecordedAt(e.rec.id) >= periodMs) this.events.record(e.rec, e.dep, { repeat: true });
    }
  }

  /** The storage folder of a pipeline (null: storage off). */
  private storageRoot(): string | null {
    return this.opts.storageRoot ?? null;
  }

  /**
   * The server's start: every pipeline that was Running or Paused when the server last stopped (however it
   * stopped) is started again towards that status; it resumes from its checkpoint and input log. Answers a
   * line for each, for the server's start-up message.
   */
  resumeStored(): string[] {
    const lines: string[] = [];
    for (const e of this.byName.values()) {
      const desired = this.storedDesired.get(e.rec.id);
      if (desired !== 'Running' && desired !== 'Paused') continue;
      lines.push(`pipeline '${e.rec.name}': started again towards ${desired}, as it was when the server stopped (its state resumes from storage)`);
      this.log(e, 'INFO', 'runner', 'pipeline_manager::runner', `the server started: resuming the pipeline towards ${desired}, as it was when the server stopped`);
      this.resumeWhenCompiled(e, desired, Date.now());
    }
    this.storedDesired.clear();
    return lines;
  }

  /** Starts a stored pipeline once its program is compiled (an interrupted compilation runs again first). */
  private resumeWhenCompiled(e: Entry, desired: 'Running' | 'Paused', since: number): void {
    if (this.closing || this.byName.get(e.rec.name) !== e) return;
    if (isCompiling(e.rec.program_status) && Date.now() - since < 10 * 60_000) {
      setTimeout(() => this.resumeWhenCompiled(e, desired, since), 200).unref();
      return;
    }
    try {
      this.requestRunState(e, desired);
    } catch (err) {
      this.log(e, 'ERROR', 'runner', 'pipeline_manager::runner', `the pipeline could not be started again: ${(err as Error).message}`);
      this.store.setDesiredStatus(e.rec.id, 'Shutdown');
    }
  }

  /** Today's Feldera storage_status and storage_status_details of a pipeline. */
  storageStatus(e: Entry): { status: 'InUse' | 'Cleared'; details: { checkpoints: Record<string, unknown>[] } | null } {
    const root = this.storageRoot();
    if (root === null || !storageInUse(root, e.rec.id)) return { status: 'Cleared', details: null };
    return { status: 'InUse', details: { checkpoints: this.checkpointList(e) } };
  }

  /** Today's Feldera CheckpointMetadata of each stored checkpoint, oldest first. */
  checkpointList(e: Entry): Record<string, unknown>[] {
    const root = this.storageRoot();
    if (root === null) return [];
    return listCheckpoints(storageDirOf(root, e.rec.id))
      .reverse()
      .map((c) => ({
        uuid: c.meta.uuid,
        identifier: null,
        fingerprint: parseInt(c.meta.fingerprint.slice(0, 13), 16),
        size: c.bytes,
        steps: c.meta.steps,
        processed_records: c.meta.processedRecords,
      }));
  }

  /** POST /checkpoint: asks the running pipeline for a checkpoint; answers its sequence number at once. */
  checkpoint(name: string): { sequence: number; incarnation: string; written: Promise<CheckpointDone> } {
    const { runtime } = this.runtimeOf(name);
    if (this.storageRoot() === null) throw new FelderaError(400, 'StorageRequired', 'This server keeps no pipeline storage: checkpoints are not available');
    const { sequence, written } = runtime.checkpoint();
    return { sequence, incarnation: runtime.incarnation, written };
  }

  list(): Entry[] {
    return [...this.byName.values()];
  }

  get(name: string): Entry {
    const e = this.byName.get(name);
    if (!e) throw Errors.unknownPipeline(name);
    return e;
  }

  private log(e: Entry, level: LogLevel, service: 'manager' | 'compiler-server' | 'runner' | 'pipeline', target: string, message: string): void {
    this.logs.log(level, service, target, message, { name: e.rec.name, id: e.rec.id });
  }

  // ---- definitions -------------------------------------------------------------------------

  static validateName(name: string): void {
    if (name === '') throw Errors.emptyName();
    if (!NAME_RE.test(name)) throw Errors.invalidName(name);
  }

  /** POST /v0/pipelines */
  create(d: PipelineDescr): Entry {
    PipelineManager.validateName(d.name);
    if (this.byName.has(d.name)) throw Errors.duplicateName();
    return this.insert(d);
  }

  private insert(d: PipelineDescr): Entry {
    const cap = this.opts.maxPipelines ?? DEFAULT_CAPS.pipelines;
    if (this.byName.size >= cap) throw Errors.pipelineLimit(cap);
    const now = nowIso();
    const rec: PipelineRecord = {
      id: uuidv7(),
      name: d.name,
      description: d.description,
      version: 1,
      created_at: now,
      runtime_config: defaultRuntimeConfig(d.runtime_config),
      program_code: d.program_code,
      program_config: defaultProgramConfig(d.program_config),
      program_version: 1,
      program_status: 'Pending',
      program_status_since: now,
      program_info: null,
      program_binary_url: null,
      ...(d.client_api === 'current' ? { client_api: 'current' as const } : {}),
    };
    this.store.save(rec);
    const e = new Entry(rec);
    this.byName.set(rec.name, e);
    this.noteStatus(e);
    this.log(e, 'INFO', 'manager', 'pipeline_manager::api', `pipeline '${rec.name}' created (program version 1)`);
    this.compiler.schedule(e);
    return e;
  }

  /** PUT /v0/pipelines/{name}: create (created=true) or replace. */
  put(urlName: string, d: PipelineDescr): { entry: Entry; created: boolean } {
    PipelineManager.validateName(urlName);
    const existing = this.byName.get(urlName);
    if (!existing) {
      if (d.name !== urlName) throw Errors.cannotRename(urlName, d.name);
      return { entry: this.insert(d), created: true };
    }
    return { entry: this.update(existing, d), created: false };
  }

  /** PATCH /v0/pipelines/{name} */
  patch(urlName: string, partial: Partial<PipelineDescr>): Entry {
    const e = this.get(urlName);
    return this.update(e, {
      name: partial.name ?? e.rec.name,
      description: partial.description ?? e.rec.description,
      runtime_config: partial.runtime_config ?? e.rec.runtime_config,
      program_code: partial.program_code ?? e.rec.program_code,
      program_config: partial.program_config ?? e.rec.program_config,
    });
  }

  private update(e: Entry, d: PipelineDescr): Entry {
    const rec = e.rec;
    if (d.name !== rec.name) {
      PipelineManager.validateName(d.name);
      if (this.byName.has(d.name)) throw Errors.duplicateName();
      if (e.dep.deployment_status !== 'Shutdown' || e.dep.deployment_desired_status !== 'Shutdown') throw Errors.cannotUpdateNonShutdown();
    }
    const runtimeConfig = defaultRuntimeConfig(d.runtime_config);
    const programConfig = defaultProgramConfig(d.program_config);
    const programChanged = d.program_code !== rec.program_code || JSON.stringify(programConfig) !== JSON.stringify(rec.program_config);
    const changed = programChanged || d.name !== rec.name || d.description !== rec.description || JSON.stringify(runtimeConfig) !== JSON.stringify(rec.runtime_config);
    if (!changed) return e;
    const next: PipelineRecord = { ...rec, name: d.name, description: d.description, runtime_config: runtimeConfig, version: rec.version + 1 };
    if (programChanged)
      Object.assign(next, {
        program_code: d.program_code,
        program_config: programConfig,
        program_version: rec.program_version + 1,
        program_status: 'Pending',
        program_status_since: nowIso(),
        program_info: null,
        program_binary_url: null,
      });
    // stored first: a write the store refuses (disk full) leaves the pipeline as it was
    this.store.save(next);
    if (d.name !== rec.name) {
      this.byName.delete(rec.name);
      this.byName.set(d.name, e);
    }
    Object.assign(rec, next);
    if (programChanged) {
      this.log(e, 'INFO', 'manager', 'pipeline_manager::api', `program of '${rec.name}' changed (program version ${rec.program_version})`);
      if (e.runtime) this.log(e, 'INFO', 'manager', 'pipeline_manager::api', `the running instance keeps program version ${e.runtime.programVersion} until it is shut down and started again`);
    }
    this.noteStatus(e);
    if (programChanged) this.compiler.schedule(e);
    return e;
  }

  delete(name: string): void {
    const e = this.get(name);
    if (e.dep.deployment_status !== 'Shutdown' || e.dep.deployment_desired_status !== 'Shutdown') throw Errors.cannotDeleteNonShutdown();
    this.compiler.cancel(e);
    const root = this.storageRoot();
    if (root !== null) clearStorage(root, e.rec.id);
    this.byName.delete(name);
    this.store.delete(e.rec.id);
    this.events.drop(e.rec.id);
    this.logs.drop(e.rec.id);
    this.logs.log('INFO', 'manager', 'pipeline_manager::api', `pipeline '${name}' deleted`);
  }

  // ---- deployment --------------------------------------------------------------------------

  private setDeployment(e: Entry, status: DeploymentStatus): void {
    if (e.dep.deployment_status === status) return;
    e.dep.deployment_status = status;
    e.dep.deployment_status_since = nowIso();
    this.noteStatus(e);
    this.log(e, 'INFO', 'runner', 'pipeline_manager::runner', `deployment status: ${status}`);
  }

  private checkCanRun(e: Entry, requested: DesiredStatus): void {
    const s = e.rec.program_status;
    if (isCompiling(s)) throw Errors.programNotYetCompiled();
    if (s !== 'Success') throw Errors.programFailedToCompile();
    if (e.dep.deployment_status === 'Failed')
      throw Errors.illegalTransition('Failed', e.dep.deployment_desired_status, requested, "Cannot restart a failed pipeline. Clear the error first by invoking the '/shutdown' endpoint.");
    if (e.dep.deployment_desired_status === 'Shutdown' && e.dep.deployment_status !== 'Shutdown')
      throw Errors.illegalTransition(
        e.dep.deployment_status,
        e.dep.deployment_desired_status,
        requested,
        'Cannot restart the pipeline while it is shutting down. Wait for the shutdown to complete before starting a new instance of the pipeline.',
      );
  }

  start(name: string): void {
    this.requestRunState(this.get(name), 'Running');
  }

  pause(name: string): void {
    this.requestRunState(this.get(name), 'Paused');
  }

  private requestRunState(e: Entry, desired: 'Running' | 'Paused'): void {
    this.checkCanRun(e, desired);
    e.dep.deployment_desired_status = desired;
    this.noteStatus(e);
    this.store.setDesiredStatus(e.rec.id, desired);
    const status = e.dep.deployment_status;
    if (status === 'Shutdown') {
      try {
        this.deploy(e);
      } catch (err) {
        e.dep.deployment_desired_status = 'Shutdown'; // e.g. the program no longer compiles after a restart
        this.noteStatus(e);
        this.store.setDesiredStatus(e.rec.id, 'Shutdown');
        throw err;
      }
      return;
    }
    if (status === 'Paused' || status === 'Running') this.applyRunState(e);
    // Provisioning / Initializing: applied when initialization finishes.
  }

  private applyRunState(e: Entry): void {
    const rt = e.runtime;
    if (!rt) return;
    if (e.dep.deployment_desired_status === 'Running') {
      // Running once the worker runs (it has applied its connectors' data by then), unless it failed
      // meanwhile or was asked to pause again
      void rt.resume().then(() => {
        if (e.runtime === rt && e.dep.deployment_desired_status === 'Running') this.setDeployment(e, 'Running');
      });
    } else if (e.dep.deployment_desired_status === 'Paused') {
      rt.pause();
      this.setDeployment(e, 'Paused');
    }
  }

  private deploy(e: Entry): void {
    const seq = ++e.deploySeq;
    const version = e.rec.program_version;
    const code = e.rec.program_code;
    const outputCase = pipelineOutputCase(e.rec, this.opts.outputCase);
    const memoryMb = memoryLimitMb(e.rec.runtime_config) ?? this.opts.defaultMemoryMb ?? DEFAULT_MEMORY_MB;
    const root = this.storageRoot();
    const storage = root === null ? undefined : storageConfigOf(root, e.rec, outputCase);
    e.dep.deployment_error = null;
    e.dep.deployment_id = uuidv7();
    e.dep.deployment_initial = e.dep.deployment_desired_status === 'Paused' ? 'Paused' : 'Running';
    e.dep.deployment_config = {
      ...e.rec.runtime_config,
      name: `pipeline-${e.rec.id}`,
      storage_config: storage ? { path: storage.dir, cache: 'page_cache' } : null,
      inputs: (e.rec.program_info as { input_connectors?: unknown } | null)?.input_connectors ?? {},
      outputs: (e.rec.program_info as { output_connectors?: unknown } | null)?.output_connectors ?? {},
    };
    this.setDeployment(e, 'Provisioning');
    const start = async (): Promise<void> => {
      if (e.deploySeq !== seq) return;
      e.dep.deployment_location = this.opts.location();
      // no room in the memory budget for another pipeline's process: the start fails, saying why
      const refusal = startRefusal(this.runningMemory(), this.memoryBudgetMb);
      if (refusal) {
        this.log(e, 'ERROR', 'runner', 'pipeline_manager::runner', `pipeline failed to start: ${refusal.message}`);
        e.dep.deployment_error = refusal;
        this.setDeployment(e, 'Failed');
        return;
      }
      this.setDeployment(e, 'Initializing');
      // the worker compiles the program itself: nothing of this thread's heap crosses over
      const host: PipelineHost = new PipelineHost({
        programCode: code,
        outputCase,
        programVersion: version,
        memoryMb,
        queryLimits: this.opts.queryLimits,
        ingressBudgetBytes: this.opts.ingressBudgetBytes,
        keepAliveMs: this.opts.keepAliveMs,
        watchMaxChunks: this.opts.watchMaxChunks,
        watchMaxBytes: this.opts.watchMaxBytes,
        fault: this.opts.workerFault ?? null,
        clock: clockSettings(e.rec.runtime_config),
        connectorAccess: this.opts.connectorAccess,
        storage,
        log: (level, message) => this.log(e, level, 'pipeline', 'dbsp_adapters::controller', message),
        onFail: (body) => this.fail(e, host, body),
      });
      e.runtime = host;
      try {
        await host.init();
      } catch (err) {
        await host.shutdown();
        if (e.deploySeq !== seq) return;
        e.runtime = null;
        const body =
          err instanceof FelderaError ? err.body() : { message: `Pipeline failed to initialize: ${(err as Error)?.message ?? String(err)}`, error_code: 'InitializationError', details: null };
        this.log(e, 'ERROR', 'runner', 'pipeline_manager::runner', `pipeline failed to start: ${body.message}`);
        e.dep.deployment_error = body;
        this.setDeployment(e, 'Failed');
        return;
      }
      if (e.deploySeq !== seq) {
        await host.shutdown();
        return;
      }
      this.setDeployment(e, 'Paused');
      this.log(e, 'INFO', 'pipeline', 'dbsp_adapters::server', `pipeline initialized (program version ${version}, memory limit ${memoryMb} MiB)`);
      this.logStorageReport(e, host);
      this.applyRunState(e);
    };
    // a throw anywhere in the start (a shutdown that fails after a failed init, ...) fails this pipeline, not the server
    setImmediate(() => {
      start().catch((err: unknown) => {
        if (e.deploySeq !== seq) return;
        const message = `Pipeline failed to start: ${(err as Error)?.message ?? String(err)}`;
        this.log(e, 'ERROR', 'runner', 'pipeline_manager::runner', message);
        e.runtime = null;
        e.dep.deployment_error = { message, error_code: 'InitializationError', details: null };
        this.setDeployment(e, 'Failed');
      });
    });
  }

  /** What the start found in the pipeline's storage, in its log. */
  private logStorageReport(e: Entry, host: PipelineHost): void {
    const r = host.storageReport;
    if (!r) return;
    for (const d of r.damaged) this.log(e, 'ERROR', 'pipeline', 'dbsp_adapters::storage', `${d}; passed over`);
    if (r.unwritable) this.log(e, 'ERROR', 'pipeline', 'dbsp_adapters::storage', r.unwritable);
    if (r.notResumed) this.log(e, 'WARN', 'pipeline', 'dbsp_adapters::storage', `stored state not resumed: ${r.notResumed}`);
    else if (r.restored || r.replayedRecords)
      this.log(
        e,
        'INFO',
        'pipeline',
        'dbsp_adapters::storage',
        `resumed from ${r.restored ? `checkpoint ${r.restored.uuid} of ${r.restored.created_at} (step ${r.restored.steps})` : 'empty state'}, then replayed ${r.replayedSteps} step(s) of the input log (${r.replayedRecords} record(s)) in ${r.msecs} ms`,
      );
  }

  /** A runtime failure (not bad input): the pipeline goes to Failed until /shutdown acknowledges it. */
  private fail(e: Entry, host: PipelineHost, body: ErrorBody): void {
    if (e.runtime !== host) return;
    // the process died (killed, crashed): it starts again from its storage, unless it died soon after the last such start
    const details = body.details as { exit_code?: unknown; process_ended?: unknown } | null;
    const died = details?.exit_code !== undefined || details?.process_ended === true;
    const last = this.restartedAt.get(e.rec.id);
    if (died && this.storageRoot() !== null && !this.opts.workerFault && !this.closing && (last === undefined || Date.now() - last > RESTART_BACKOFF_MS)) {
      this.restartedAt.set(e.rec.id, Date.now());
      e.runtime = null;
      this.log(e, 'ERROR', 'runner', 'pipeline_manager::runner', `${body.message} The pipeline is started again from its checkpoint and input log.`);
      void host.shutdown();
      this.setDeployment(e, 'Shutdown');
      this.deploy(e);
      return;
    }
    e.runtime = null;
    e.dep.deployment_error = body;
    this.log(e, 'ERROR', 'runner', 'pipeline_manager::runner', `pipeline failed: ${body.message}`);
    this.setDeployment(e, 'Failed');
    void host.shutdown();
  }

  /**
   * `/shutdown` (v0.24): stops the pipeline and discards its state (its storage is cleared), as
   * `/stop?force=true` does; `keep` (today's `/dismiss_error`, a suspend) keeps the storage.
   */
  async shutdown(name: string, opts: { keep?: boolean } = {}): Promise<void> {
    const e = this.get(name);
    e.dep.deployment_desired_status = 'Shutdown';
    this.store.setDesiredStatus(e.rec.id, 'Shutdown');
    const root = this.storageRoot();
    if (e.dep.deployment_status === 'Shutdown') {
      e.dep.deployment_error = null; // acknowledges a failed start
      this.noteStatus(e);
      if (root !== null && !opts.keep) clearStorage(root, e.rec.id);
      return;
    }
    this.noteStatus(e);
    e.deploySeq++; // cancels a start still provisioning or initializing
    const rt = e.runtime;
    e.runtime = null;
    this.setDeployment(e, 'ShuttingDown');
    if (rt) await rt.shutdown();
    if (root !== null && !opts.keep) clearStorage(root, e.rec.id);
    e.dep.deployment_config = null;
    e.dep.deployment_location = null;
    e.dep.deployment_error = null;
    e.dep.deployment_id = null;
    e.dep.deployment_initial = null;
    this.setDeployment(e, 'Shutdown');
  }

  // ---- today's lifecycle calls (beside v0.24's) --------------------------------------------

  /**
   * `/stop?force=false` (a bare `/stop` too): a checkpoint, then the pipeline stops and keeps its storage; the
   * next `/start` resumes it (Feldera's suspend). A checkpoint that cannot be written stops it all the same,
   * the error in deployment_error, the previous checkpoint and the input log kept. `/stop?force=true`: stops
   * and discards the state, as `/shutdown` does. A failed pipeline stays failed (its deployment_error kept)
   * until `/dismiss_error`; its storage is kept.
   */
  async stop(name: string, opts: { force: boolean }): Promise<void> {
    const e = this.get(name);
    if (e.dep.deployment_status === 'Failed') {
      e.dep.deployment_desired_status = 'Shutdown';
      this.store.setDesiredStatus(e.rec.id, 'Shutdown');
      this.noteStatus(e);
      if (opts.force && this.storageRoot() !== null) clearStorage(this.storageRoot()!, e.rec.id);
      return;
    }
    if (opts.force) return this.shutdown(name);
    const rt = e.runtime;
    if (rt && (e.dep.deployment_status === 'Running' || e.dep.deployment_status === 'Paused') && this.storageRoot() !== null) {
      e.dep.deployment_desired_status = 'Shutdown';
      this.noteStatus(e);
      try {
        await rt.checkpoint().written;
      } catch (err) {
        e.dep.deployment_error = { message: `The checkpoint before the stop failed: ${(err as Error).message}`, error_code: 'SuspendError', details: null };
        this.log(e, 'ERROR', 'runner', 'pipeline_manager::runner', e.dep.deployment_error.message);
      }
      const error = e.dep.deployment_error;
      await this.shutdown(name, { keep: true });
      if (error) e.dep.deployment_error = error;
      return;
    }
    await this.shutdown(name, { keep: true });
  }

  /** `/resume`: a started pipeline (Paused, or still on its way up) runs; a stopped one must be started. */
  resume(name: string): void {
    const e = this.get(name);
    const { deployment_status: status, deployment_desired_status: desired } = e.dep;
    if (status === 'Shutdown' || status === 'Failed' || desired === 'Shutdown')
      throw Errors.illegalTransition(status, desired, 'Running', 'Only a started pipeline can be resumed: start it with /start.');
    this.start(name);
  }

  /** `/clear`: deletes a stopped pipeline's stored state (checkpoints and input log). */
  clearStorage(name: string): void {
    const e = this.get(name);
    const status = e.dep.deployment_status;
    if (status !== 'Shutdown' && status !== 'Failed')
      throw Errors.illegalTransition(status, e.dep.deployment_desired_status, 'Cleared', 'Storage can only be cleared once the pipeline is stopped: stop it first with /stop.');
    const root = this.storageRoot();
    if (root !== null) clearStorage(root, e.rec.id);
  }

  /** `/v0/validate_program`: the compiler's report on a program, without creating a pipeline (compile-jobs.ts). */
  validateProgram(code: string): Promise<CompileReport> {
    return this.compiler.validate(code);
  }

  /** `/dismiss_error`: acknowledges a failed pipeline's error (it becomes stopped, error null); without an error it does nothing. */
  async dismissError(name: string): Promise<void> {
    const e = this.get(name);
    if (e.dep.deployment_error === null) return;
    if (e.dep.deployment_status !== 'Failed' && e.dep.deployment_status !== 'Shutdown')
      throw Errors.illegalTransition(e.dep.deployment_status, e.dep.deployment_desired_status, 'Stopped', 'The error can only be dismissed once the pipeline is stopped.');
    await this.shutdown(name, { keep: true });
  }

  /** The runtime of a pipeline that is Running or Paused (for ingress, egress and stats). */
  runtimeOf(name: string): { entry: Entry; runtime: PipelineHost } {
    const e = this.get(name);
    const s = e.dep.deployment_status;
    if (s === 'Provisioning' || s === 'Initializing') throw Errors.initializing();
    if (s === 'ShuttingDown') throw Errors.terminating();
    if (!e.runtime || (s !== 'Running' && s !== 'Paused')) throw Errors.notRunning(e.rec.id, e.rec.name);
    return { entry: e, runtime: e.runtime };
  }

  /**
   * The server stops: every running pipeline writes a checkpoint (at most STOP_CHECKPOINT_TIMEOUT_MS each, all
   * at once) and stops; the stored desired statuses stay as they are, so the next start resumes them.
   */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    clearInterval(this.heartbeat);
    clearInterval(this.budgetCheck);
    const stops: Promise<void>[] = [];
    for (const e of this.byName.values()) {
      this.compiler.cancel(e);
      e.deploySeq++;
      const rt = e.runtime;
      e.runtime = null;
      if (!rt) continue;
      const running = e.dep.deployment_status === 'Running' || e.dep.deployment_status === 'Paused';
      stops.push(
        (async () => {
          if (running && this.storageRoot() !== null) {
            let timer: NodeJS.Timeout | undefined;
            try {
              await Promise.race([rt.checkpoint().written, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timed out')), STOP_CHECKPOINT_TIMEOUT_MS)))]);
              this.log(e, 'INFO', 'runner', 'pipeline_manager::runner', 'checkpoint written as the server stops');
            } catch (err) {
              this.log(e, 'ERROR', 'runner', 'pipeline_manager::runner', `the checkpoint as the server stops failed (the input log keeps what it has): ${(err as Error).message}`);
            } finally {
              clearTimeout(timer);
            }
          }
          await rt.shutdown();
        })(),
      );
    }
    await Promise.all(stops);
    // (a shared compiler's jobs for this server were cancelled above: their results are dropped)
    if (this.ownsCompiler) await this.compiler.close();
  }
}

/** runtime_config.resources.memory_mb_max when set (validated by the routes), else null. */
export function memoryLimitMb(runtimeConfig: Record<string, unknown>): number | null {
  const resources = runtimeConfig.resources as Record<string, unknown> | null | undefined;
  const v = resources?.memory_mb_max;
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : null;
}
