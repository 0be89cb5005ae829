/** Errors that carry their exit code, and the exit codes themselves (see `ops help exit-codes`). */

export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  /** `ops serve status` (and `logs`): no server runs on the data dir */
  notRunning: 3,
  auth: 4,
  timeout: 8,
  interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export class OpsError extends Error {
  constructor(
    message: string,
    public readonly exitCode: ExitCode = ExitCode.failure,
    /** A hint printed after the message, e.g. what to run instead. */
    public readonly hint?: string,
  ) {
    super(message);
    this.name = 'OpsError';
  }
}

export class UsageError extends OpsError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.usage, hint);
    this.name = 'UsageError';
  }
}

export class AuthError extends OpsError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.auth, hint);
    this.name = 'AuthError';
  }
}

export class TimeoutError extends OpsError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.timeout, hint);
    this.name = 'TimeoutError';
  }
}

/** A service answered with an error status. `message` is already one readable line (plus field details). */
export class ApiError extends OpsError {
  constructor(
    message: string,
    public readonly status: number,
    public readonly body: unknown,
    /** Field -> messages, for validation errors (LinkAce 422). */
    public readonly fieldErrors: Record<string, string[]> = {},
    /** Machine code from the service, e.g. Feldera's error_code. */
    public readonly code?: string,
  ) {
    super(message, status === 401 || status === 403 ? ExitCode.auth : ExitCode.failure);
    this.name = 'ApiError';
  }
}

/** Could not reach a service at all (refused, DNS, TLS, timeout). */
export class NetworkError extends OpsError {
  constructor(
    message: string,
    hint?: string,
    /** the socket's error code when there is one, e.g. ECONNREFUSED */
    readonly code?: string,
  ) {
    super(message, ExitCode.failure, hint);
    this.name = 'NetworkError';
  }
}

/** Ends a command with an exit code and no message: a server stopped with Ctrl-C exits 130 after shutting down. */
export class QuietExit extends OpsError {
  constructor(exitCode: ExitCode) {
    super('', exitCode);
    this.name = 'QuietExit';
  }
}

/** What each exit code means, for `ops help exit-codes` and the man page. */
export const EXIT_CODE_MEANINGS: readonly { code: ExitCode; meaning: string }[] = [
  { code: ExitCode.ok, meaning: 'success' },
  { code: ExitCode.failure, meaning: 'failure (the service answered an error, a check failed, a network error)' },
  { code: ExitCode.usage, meaning: 'usage error (bad flag or argument; a confirmation needed but no terminal and no --yes)' },
  { code: ExitCode.notRunning, meaning: 'not running (`ops serve status`: no server holds the data dir; `ops serve logs`: no log)' },
  { code: ExitCode.auth, meaning: 'authentication or permission failure (HTTP 401/403; run `ops auth login SERVICE`)' },
  { code: ExitCode.timeout, meaning: 'timed out waiting (e.g. `ops pipe start --timeout`)' },
  { code: ExitCode.interrupted, meaning: 'interrupted (Ctrl-C)' },
];
