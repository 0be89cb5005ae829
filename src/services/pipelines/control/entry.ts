/** One pipeline as the manager holds it: its stored record, deployment state and the host of its running instance. */
import { nowIso, type DeploymentState, type PipelineRecord } from './model.js';
import type { PipelineHost } from '../runner/host.js';

export class Entry {
  dep: DeploymentState;
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
