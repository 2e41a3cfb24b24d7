/** Raw HTTP/1.1 on a socket, for what Node refuses before a request exists (malformed lines, headers over the limit, stalls). */
import { connect } from 'node:net';

/** Writes `text` to 127.0.0.1:`port` and resolves with everything received once the server closes the connection. */
export function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
}
