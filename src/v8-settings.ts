/**
 * V8 settings of the gateway process, imported first by src/server.ts so they hold before the app is
 * built (the Dockerfile, `npm start` and the bench all start the process there).
 *
 * Allocation-site pretenuring off: V8 moves an allocation site's objects straight to the old generation
 * once enough of them survive a scavenge. Start-up (tens of MB of heap at rest, nearly all of it built
 * then and kept) could tip sites that every request also allocates at; a request's objects then lived in the
 * old generation from birth, and each scavenge kept alive, and promoted, the young objects they pointed
 * at: about 900 KB a scavenge instead of 60 to 150, and 16 to 18 µs of garbage collection per request
 * instead of 5 to 7 (`--trace-gc-nvp`, native lane, 32 connections). Which way a run went changed from one
 * start to the next; with pretenuring off, no run went the bad way. A gateway's request objects die
 * young, so the heuristic has nothing to win here.
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--no-allocation-site-pretenuring');
