/**
 * `npm run bench`: the performance suite of issue 5, printing a markdown report on stdout (progress
 * on stderr). `BENCH_QUICK=1` for a one-minute smoke run; `-- --profile` for CPU profiles instead (`-- --profile --lanes
 * [--against DIR]`: CPU and allocation profiles of both lanes, bench/profile-lanes.ts); `-- --cost` for the Cost rows alone; `-- --agent-turn` for the agent-turn rows alone; `-- --lanes [--against DIR|COMMIT|baseline]`
 * for the two lanes' CPU per request alone, against the named baseline commit by default (bench/lanes-suite.ts);
 * `-- --instructions [--against …]` for the same comparison counted by valgrind, free of the machine's noise
 * (`--streamed`: the lanes' 500-chunk streams, counted per chunk)
 * (bench/instruction-counts.ts).
 */
import { renderAgentTurnSection, runAgentTurnScenario } from './agent-turn-scenario.js';
import { renderBenchReport, renderCostSection } from './bench-report.js';
import { renderInstructionCounts, runInstructionCounts, streamedKinds, wholeRequestKinds } from './instruction-counts.js';
import { renderLanesReport, renderLanesSection } from './lanes-report.js';
import { laneTrees, runLanesSuite } from './lanes-suite.js';
import { runCostSuite } from './run-cost-suite.js';
import { readBenchSettings } from './bench-settings.js';
import { spawnServerProcess } from './child-servers.js';
import { readMachineInfo } from './machine-info.js';
import { runParserSection, type ParserSection } from './parser-benchmarks-hook.js';
import { profileGateway } from './profile-gateway.js';
import { profileLanes } from './profile-lanes.js';
import { createProgress, type Progress } from './progress.js';
import { runSuite } from './run-suite.js';
import { renderMarkdownTable } from './markdown-table.js';
import { runStreamDecoderBenchmarks } from './stream-decoders.js';

const quickRunParserSection: ParserSection = {
  status: 'missing',
  markdown: '_Left out of BENCH_QUICK=1 runs, with the stream decoders: `node --import tsx bench/parsers.ts` measures the parsers._',
};

function runAnnounced<Result>(progress: Progress, name: string, run: () => Promise<Result>): Promise<Result> {
  progress(name);
  return run();
}

async function main(): Promise<void> {
  const settings = readBenchSettings(process.env);
  const progress = createProgress();
  const machine = readMachineInfo();
  if (process.argv.includes('--profile')) {
    const upstream = await spawnServerProcess('fake-upstream');
    try {
      const report = process.argv.includes('--lanes')
        ? await profileLanes(laneTrees(process.argv, progress), upstream.url, settings, progress)
        : await profileGateway(upstream.url, settings, progress);
      process.stdout.write(
        `# Interlingua gateway profile\n\n- Date: ${machine.date}\n- Node: ${machine.node} · CPU: ${machine.cpu} × ${machine.cores} · commit ${machine.commit}\n\n${report}\n`,
      );
    } finally {
      await upstream.stop();
    }
    return;
  }
  if (process.argv.includes('--cost')) {
    const figures = await runCostSuite(settings, progress);
    process.stdout.write(
      `# Interlingua bench: cost rows\n\n- Node: ${machine.node} · CPU: ${machine.cpu} × ${machine.cores} · commit ${machine.commit}\n\n${renderCostSection(figures)}\n`,
    );
    return;
  }
  if (process.argv.includes('--instructions')) {
    const kinds = process.argv.includes('--streamed') ? streamedKinds : wholeRequestKinds;
    const counts = await runInstructionCounts(laneTrees(process.argv, progress), progress, kinds);
    process.stdout.write(
      `# Interlingua bench: instructions and cache misses per request or streamed chunk (valgrind)\n\n- Date: ${machine.date} · Node: ${machine.node} · commit ${machine.commit}\n\n${renderInstructionCounts(counts)}\n`,
    );
    return;
  }
  if (process.argv.includes('--lanes')) {
    const figures = await runLanesSuite(laneTrees(process.argv, progress), settings, progress);
    process.stdout.write(renderLanesReport(machine, figures));
    return;
  }
  if (process.argv.includes('--agent-turn')) {
    const agentTurn = await runAgentTurnScenario(settings, progress);
    process.stdout.write(
      `# Interlingua bench: agent turn\n\n- Node: ${machine.node} · CPU: ${machine.cpu} × ${machine.cores} · commit ${machine.commit}\n\n${renderAgentTurnSection(agentTurn)}\n`,
    );
    return;
  }
  const figures = await runSuite(settings, progress);
  const agentTurn = await runAgentTurnScenario(settings, progress);
  // Every family's parser over 1 MB and 10 MB inputs takes minutes: a quick run leaves the parsers and the decoders out.
  const { parsers, decoders } = settings.quick
    ? { parsers: quickRunParserSection, decoders: [] }
    : {
        parsers: await runAnnounced(progress, 'parser benchmarks (bench/parsers.ts)', runParserSection),
        decoders: await runAnnounced(progress, 'stream decoder benchmarks (bench/stream-decoders.ts)', runStreamDecoderBenchmarks),
      };
  if (parsers.status !== 'ok') figures.skipped.push({ section: 'parsers', reason: parsers.markdown.replace(/^_|_$/g, '') });
  // The side-by-side run against the named baseline commit (issue 27): a slow drift shows here, in every full run.
  const lanes = settings.quick ? undefined : await runLanesSuite(laneTrees(process.argv, progress), settings, progress);
  if (!lanes)
    figures.skipped.push({
      section: 'lanes against the baseline',
      reason: 'left out of BENCH_QUICK=1 runs (npm run bench -- --lanes measures them)',
    });
  const decoderTable = renderMarkdownTable(
    ['Decoder (16 KB reads)', '1 MB ms CPU', '10 MB ms CPU', '10 MB ÷ 1 MB (linear ≈ 10)'],
    decoders.map((row) => [row.decoder, String(row.oneMegabyteMs), String(row.tenMegabytesMs), String(row.tenToOneRatio)]),
  );
  process.stdout.write(
    `${renderBenchReport(machine, settings, figures, parsers)}\n\n${renderAgentTurnSection(agentTurn)}\n## Stream decoders (bench/stream-decoders.ts)\n\n${decoderTable}\n${
      lanes ? `\n## Lanes against the baseline (bench/lanes-suite.ts)\n\n${renderLanesSection(lanes, '###')}\n` : ''
    }`,
  );
}

await main();
