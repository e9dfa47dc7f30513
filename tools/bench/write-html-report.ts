import { readFileSync, writeFileSync } from 'node:fs';
import { htmlReport, htmlReportPathFor, type ReportedResults } from './html-report.js';

/**
 * Writes the HTML report of a results file again: `node dist/tools/bench/write-html-report.js <results.json> [out.html]`
 * (`npm run bench` writes it beside its JSON by itself).
 */
const [resultsPath, outPath] = process.argv.slice(2);
if (!resultsPath) {
  process.stderr.write('usage: node dist/tools/bench/write-html-report.js <results.json> [out.html]\n');
  process.exit(2);
}
const results = JSON.parse(readFileSync(resultsPath, 'utf8')) as ReportedResults;
if (!Array.isArray(results.reports)) {
  process.stderr.write(`${resultsPath} is not a bench results file (no reports)\n`);
  process.exit(1);
}
const target = outPath ?? htmlReportPathFor(resultsPath);
writeFileSync(target, htmlReport(results));
process.stdout.write(`wrote ${target}\n`);
