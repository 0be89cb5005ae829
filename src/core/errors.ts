/** Errors that carry their exit code, and the exit codes themselves (see `ops help exit-codes`). */

export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
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
  constructor(message: string, hint?: string) {
    super(message, ExitCode.failure, hint);
    this.name = 'NetworkError';
  }
}
