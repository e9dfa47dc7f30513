import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url));
const engines = (
  JSON.parse(readFileSync(`${repositoryRoot}package.json`, 'utf8')) as { engines: { node: string } }
).engines.node;

/** Whether `version` (x.y.z) satisfies `range`, a `||` list of caret ranges (`^20.19.0`), as engines uses. */
function satisfiesCaretRanges(version: string, range: string): boolean {
  const parse = (text: string) => text.split('.').map(Number);
  const [major, minor, patch] = parse(version);
  return range.split('||').some((alternative) => {
    const match = /^\s*\^(\d+\.\d+\.\d+)\s*$/.exec(alternative);
    if (!match) throw new Error(`engines.node "${range}": "${alternative}" is not a caret range`);
    const [lowMajor, lowMinor, lowPatch] = parse(match[1]);
    return major === lowMajor && (minor > lowMinor || (minor === lowMinor && patch >= lowPatch));
  });
}

describe('the Node runtime', () => {
  it('engines names Node 20 (the machine) and Node 24 LTS (the image), what CI tests', () => {
    expect(satisfiesCaretRanges('20.20.2', engines)).toBe(true);
    expect(satisfiesCaretRanges('24.21.0', engines)).toBe(true);
    expect(satisfiesCaretRanges('22.20.0', engines)).toBe(false);
    expect(satisfiesCaretRanges('26.0.0', engines)).toBe(false);
  });

  it('the container image runs a Node 24 that engines allows (CI installs the same one)', () => {
    const imageNode = execFileSync(`${repositoryRoot}deploy/scripts/image-node-version.sh`, {
      encoding: 'utf8',
    }).trim();
    expect(imageNode).toMatch(/^24\.\d+\.\d+$/);
    expect(satisfiesCaretRanges(imageNode, engines)).toBe(true);
  });

  it('the tests run on a Node that engines allows', () => {
    expect([process.version, satisfiesCaretRanges(process.versions.node, engines)]).toEqual([
      process.version,
      true,
    ]);
  });
});
