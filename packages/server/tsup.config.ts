import { defineConfig } from 'tsup';

// The bundled OpenAPI document (from @ocs/sdk) is inlined, so the built server needs no
// JSON import at run time; the runtime dependencies stay external.
export default defineConfig({
  entry: { index: 'src/index.ts', 'node/index': 'src/node/index.ts', 'node/bin': 'src/node/bin.ts' },
  format: ['esm'],
  dts: false,
  clean: true,
  sourcemap: true,
  target: 'node20',
  platform: 'node',
  noExternal: ['@ocs/sdk'],
});
