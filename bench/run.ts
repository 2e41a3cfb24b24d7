/**
 * `npm run bench`: the performance suite of issue 5, printing a markdown report on stdout (progress
 * on stderr). `BENCH_QUICK=1` for a one-minute smoke run; `-- --profile` for CPU profiles instead; `-- --cost` for the Cost rows alone; `-- --agent-turn` for the agent-turn rows alone.
 */
import { renderAgentTurnSection, runAgentTurnScenario } from './agent-turn-scenario.js';
import { renderBenchReport, renderCostSection } from './bench-report.js';
import { runCostSuite } from './run-cost-suite.js';
import { readBenchSettings } from './bench-settings.js';
import { spawnServerProcess } from './child-servers.js';
import { readMachineInfo } from './machine-info.js';
import { runParserSection } from './parser-benchmarks-hook.js';
import { profileGateway } from './profile-gateway.js';
import { createProgress } from './progress.js';
import { runSuite } from './run-suite.js';
import { renderMarkdownTable } from './markdown-table.js';
import { runStreamDecoderBenchmarks } from './stream-decoders.js';

async function main(): Promise<void> {
  const settings = readBenchSettings(process.env);
  const progress = createProgress();
  const machine = readMachineInfo();
  if (process.argv.includes('--profile')) {
    const upstream = await spawnServerProcess('fake-upstream');
    try {
      const report = await profileGateway(upstream.url, settings, progress);
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
  if (process.argv.includes('--agent-turn')) {
    const agentTurn = await runAgentTurnScenario(settings, progress);
    process.stdout.write(
      `# Interlingua bench: agent turn\n\n- Node: ${machine.node} · CPU: ${machine.cpu} × ${machine.cores} · commit ${machine.commit}\n\n${renderAgentTurnSection(agentTurn)}\n`,
    );
    return;
  }
  const figures = await runSuite(settings, progress);
  const agentTurn = await runAgentTurnScenario(settings, progress);
  progress('parser benchmarks (bench/parsers.ts)');
  const parsers = await runParserSection();
  if (parsers.status !== 'ok') figures.skipped.push({ section: 'parsers', reason: parsers.markdown.replace(/_/g, '') });
  progress('stream decoder benchmarks (bench/stream-decoders.ts)');
  const decoders = await runStreamDecoderBenchmarks();
  const decoderTable = renderMarkdownTable(
    ['Decoder (16 KB reads)', '1 MB ms CPU', '10 MB ms CPU', '10 MB ÷ 1 MB (linear ≈ 10)'],
    decoders.map((row) => [row.decoder, String(row.oneMegabyteMs), String(row.tenMegabytesMs), String(row.tenToOneRatio)]),
  );
  process.stdout.write(
    `${renderBenchReport(machine, settings, figures, parsers)}\n\n${renderAgentTurnSection(agentTurn)}\n## Stream decoders (bench/stream-decoders.ts)\n\n${decoderTable}\n`,
  );
}

await main();
