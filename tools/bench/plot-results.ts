import { readFileSync, writeFileSync } from 'node:fs';
import { commandLatencySvg, machineSubtitle, plotPathFor, type PlottedStep } from './latency-plot.js';

/**
 * Draws the latency plot of a results file again: `node dist/tools/bench/plot-results.js <results.json> [out.svg]`
 * (`npm run bench` draws it after its commands phase by itself).
 */
const [resultsPath, outPath] = process.argv.slice(2);
if (!resultsPath) {
  process.stderr.write('usage: node dist/tools/bench/plot-results.js <results.json> [out.svg]\n');
  process.exit(2);
}
const results = JSON.parse(readFileSync(resultsPath, 'utf8')) as {
  machine: { cpus: number; memoryGiB: number };
  reports: { phase: string; result: { steps?: PlottedStep[] } }[];
};
const steps = results.reports.find((report) => report.phase === 'commands')?.result.steps;
if (!steps) {
  process.stderr.write(`${resultsPath} has no commands phase\n`);
  process.exit(1);
}
const target = outPath ?? plotPathFor(resultsPath);
writeFileSync(target, commandLatencySvg(steps, machineSubtitle(results.machine)));
process.stdout.write(`wrote ${target}\n`);
