/**
 * Server text is untrusted: strip terminal control sequences and control characters before printing,
 * so a bookmark title cannot move the cursor, change colours or rewrite the terminal title.
 */
// eslint-disable-next-line no-control-regex
const ESCAPE_SEQUENCES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;
// C0 controls except tab and newline, DEL, and C1 controls.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function sanitize(text: string, options: { keepNewlines?: boolean } = {}): string {
  let out = text.replace(ESCAPE_SEQUENCES, '').replace(CONTROL_CHARS, '');
  if (!options.keepNewlines) out = out.replace(/[\n\t]/g, ' ');
  return out;
}
