/**
 * A raw TCP client for tests that play careless or hostile HTTP clients (a connection that sends
 * nothing, half a request head, a body that stalls, a reader that never reads): what it received,
 * and a promise that resolves when the server closed the connection.
 */
import { connect, type Socket } from 'node:net';

export interface RawClient {
  socket: Socket;
  /** Everything received so far, as text. */
  readonly received: string;
  /** Resolves once the connection is closed (by either side). */
  gone: Promise<void>;
  write(text: string): void;
}

export async function rawClient(baseUrl: string): Promise<RawClient> {
  const url = new URL(baseUrl);
  const socket = connect({ host: url.hostname, port: Number(url.port) });
  let received = '';
  socket.on('data', (d: Buffer) => (received += d.toString()));
  socket.on('error', () => {});
  const gone = new Promise<void>((r) => socket.once('close', () => r()));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    get received() {
      return received;
    },
    gone,
    write: (text) => void socket.write(text),
  };
}
