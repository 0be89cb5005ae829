/** One pipeline as the manager holds it: its stored record, deployment state, compiled program and runtime. */
import type { CompiledProgram } from '../../../engine/index.js';
import { nowIso, type DeploymentState, type PipelineRecord } from './model.js';
import type { PipelineHost } from '../runner/host.js';

export class Entry {
  dep: DeploymentState;
  /** Compiled program of rec.program_version, once compiled. */
  program: CompiledProgram | null = null;
  programVersion = 0;
  /** The deployed pipeline's worker host, while Initializing, Paused or Running. */
  runtime: PipelineHost | null = null;
  compileSeq = 0;
  deploySeq = 0;

  constructor(public rec: PipelineRecord) {
    this.dep = {
      deployment_status: 'Shutdown',
      deployment_status_since: nowIso(),
      deployment_desired_status: 'Shutdown',
      deployment_error: null,
      deployment_config: null,
      deployment_location: null,
      deployment_id: null,
      deployment_initial: null,
    };
  }
}
