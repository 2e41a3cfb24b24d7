/** A loopback OTLP/HTTP receiver for the bench's traced row: it reads each export and answers 200, keeping nothing. */
import http from 'node:http';
import { listenOnLoopback, type RunningServer } from './running-server.js';

export async function startOtlpSink(): Promise<RunningServer> {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  return listenOnLoopback(server);
}
