/**
 * A response body built from many strings as UTF-8 bytes, without ever holding it as one string: V8's
 * strings end at about 512 MiB (2^29 characters), where a body that a Buffer holds easily (up to 4 GiB)
 * would fail with "Invalid string length". Strings are gathered up to FLUSH_CHARS characters, then
 * encoded into a part; bytes() joins the parts.
 *
 * Rules: each add() is encoded whole (never cut, so a surrogate pair inside it stays a pair), and the bytes
 * are what encoding the concatenation of everything added at once gives. Pure.
 */
const FLUSH_CHARS = 1 << 20;

export class TextBytes {
  private pending: string[] = [];
  private pendingChars = 0;
  private readonly parts: Buffer[] = [];
  private length = 0;

  constructor(private readonly flushChars = FLUSH_CHARS) {}

  add(text: string): void {
    this.pending.push(text);
    this.pendingChars += text.length;
    if (this.pendingChars >= this.flushChars) this.flush();
  }

  /** The body so far, in one buffer of its own (never a slice of Node's shared pool: it may be transferred). */
  bytes(): Buffer {
    this.flush();
    const only = this.parts.length === 1 ? this.parts[0]! : null;
    if (only !== null && only.byteOffset === 0 && only.byteLength === only.buffer.byteLength) return only;
    const out = Buffer.allocUnsafeSlow(this.length);
    let at = 0;
    for (const part of this.parts) at += part.copy(out, at);
    return out;
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    const part = Buffer.from(this.pending.join(''), 'utf8');
    this.pending = [];
    this.pendingChars = 0;
    this.parts.push(part);
    this.length += part.length;
  }
}
