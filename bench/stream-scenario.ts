/** The streaming measurement: time to first byte and chunks/s of a 500-chunk reply at 1 and 64 streams. */
import { benchRequestBody } from './bench-requests.js';
import { summariseStreams, type StreamFigures } from './bench-figures.js';
import type { BenchSettings } from './bench-settings.js';
import type { Contender } from './contenders.js';
import { cpuDuring } from './cpu-during.js';
import { longReplyChunkCount } from './fake-replies.js';
import type { Progress } from './progress.js';
import { alternateRounds } from './round-robin.js';
import { measureStreams } from './stream-load.js';

export async function runStreamScenario(contenders: Contender[], settings: BenchSettings, progress: Progress): Promise<StreamFigures[]> {
  const bodies = new Map(contenders.map((contender) => [contender, benchRequestBody({ model: contender.stream.model, stream: true })]));
  const figures: StreamFigures[] = [];
  for (const streams of settings.streams) {
    progress(`streaming, ${streams} concurrent stream(s): ${contenders.map((contender) => contender.name).join(', ')}`);
    const window = (contender: Contender, durationMs: number) =>
      cpuDuring(contender.process, () =>
        measureStreams({
          dispatcher: contender.pool,
          path: contender.stream.path,
          body: bodies.get(contender)!,
          streams,
          durationMs,
          chunksPerReply: longReplyChunkCount,
        }),
      );
    const rounds = await alternateRounds(
      contenders,
      settings.rounds,
      (contender) => window(contender, settings.warmupMs),
      (contender) => window(contender, settings.windowMs),
    );
    contenders.forEach((contender, index) => figures.push(summariseStreams(contender.name, streams, longReplyChunkCount, rounds[index]!)));
  }
  return figures;
}
