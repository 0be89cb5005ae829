/**
 * Why a file the user named cannot be read, in words (never a bare `ENOENT`): the one text for every command that
 * reads a file given as an argument or flag (`cannot read nosuch.sql: no such file`).
 */

const REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOTDIR: 'a part of the path is not a directory',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the name is too long',
};

/** The reason a file could not be read, from the error node gave. */
export function fileErrorReason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code && REASONS[code]) return REASONS[code];
  return err instanceof Error ? err.message : String(err);
}

/** `cannot read FILE: REASON`. */
export function cannotRead(file: string, err: unknown): string {
  return `cannot read ${file}: ${fileErrorReason(err)}`;
}
