/**
 * Loaded into a profiled gateway with `--import` (bench/profile-lanes.ts): V8's sampling heap profiler,
 * counting objects a garbage collection has already freed too (so the figure is what a request
 * allocates, not what survives it). The first SIGUSR2 starts sampling, the second writes the profile
 * to $ALLOCATION_PROFILE_PATH, so only the loaded window is counted.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

function installAllocationSampling(outputPath: string): void {
  const session = new Session();
  session.connect();
  let sampling = false;
  process.on('SIGUSR2', () => {
    if (!sampling) {
      sampling = true;
      session.post('HeapProfiler.startSampling', {
        samplingInterval: 4096,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
      return;
    }
    sampling = false;
    // The in-thread session answers synchronously, so the file is written before the next signal.
    session.post('HeapProfiler.stopSampling', (error, result) => {
      writeFileSync(outputPath, error ? JSON.stringify({ error: String(error) }) : JSON.stringify(result.profile));
    });
  });
}

const outputPath = process.env.ALLOCATION_PROFILE_PATH;
if (outputPath !== undefined) installAllocationSampling(outputPath);
