import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const outDir = fileURLToPath(new URL('../../dist/apps/console', import.meta.url));

/**
 * Brotli and gzip twins of every script and stylesheet, made once at build time: api-gateway sends them to browsers
 * that accept them (@fastify/static `preCompressed`), so no request pays for compression.
 */
function precompress() {
  return {
    name: 'cpc-precompress',
    apply: 'build',
    writeBundle(_options, bundle) {
      for (const fileName of Object.keys(bundle).filter((name) => /\.(js|css)$/.test(name))) {
        const path = join(outDir, fileName);
        const content = readFileSync(path);
        writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
        writeFileSync(
          `${path}.br`,
          brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
        );
      }
    },
  };
}

/**
 * The console's build: static files under dist/apps/console (api-gateway serves them at /console). Hashed file names
 * under assets/, so the gateway can let browsers keep them; index.html is the only file that names them.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  plugins: [react(), precompress()],
  logLevel: 'warn',
  build: {
    outDir,
    emptyOutDir: true,
    // No inline scripts or data: URLs for scripts: the console's CSP allows only its own script files.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: true,
    chunkSizeWarningLimit: 600,
  },
});
