/**
 * Typed arrays that arrived over the IPC channel, made the receiver's own. A message deserialized from
 * Node's channel holds its typed arrays as views into the buffer the channel read them with, which may
 * hold other messages too (Node reads up to 64 KiB at a time and keeps a message that spans reads in one
 * joined buffer): a view kept past its message's handler (a chunk queued on a slow watch stream) would
 * keep all of that alive, and the watch streams' byte bounds would not bound memory. Copying each into a
 * buffer of its own makes its size what it holds, and gives a buffer that can be transferred on to a
 * worker thread (a view into the channel's buffer cannot be).
 *
 * Rules: walks plain objects and arrays (to a small depth: messages are shallow) and replaces every
 * ArrayBufferView in place with an exact copy of its bytes, of the same type; the copies' buffers are
 * pushed to `transfer`. Anything else is left as it is. Pure but for the message it is given.
 */

const MAX_DEPTH = 4;

export function ownBuffers(value: unknown, transfer: ArrayBuffer[] = [], depth = 0): unknown {
  if (ArrayBuffer.isView(value)) {
    const copy = new Uint8Array(value.byteLength);
    copy.set(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
    transfer.push(copy.buffer);
    if (value instanceof Uint8Array) return Buffer.isBuffer(value) ? Buffer.from(copy.buffer) : copy;
    if (value instanceof DataView) return new DataView(copy.buffer);
    return new (value.constructor as new (b: ArrayBuffer) => ArrayBufferView)(copy.buffer);
  }
  if (depth >= MAX_DEPTH || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = ownBuffers(value[i], transfer, depth + 1);
    return value;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  const obj = value as Record<string, unknown>;
  for (const k of Object.keys(obj)) obj[k] = ownBuffers(obj[k], transfer, depth + 1);
  return obj;
}
