/**
 * A page for the browser tests, as an integrator's app would ship it: `entry` bundled with
 * esbuild for the browser (the published entries, with the `browser` conditions), served on
 * 127.0.0.1 (port 0) with MSW's service worker beside it. A warning from the bundler fails it.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';

const require = createRequire(import.meta.url);

export interface PageServer {
  server: Server;
  /** `http://127.0.0.1:<port>`: the page is at `/`. */
  origin: string;
}

export async function servePage(entry: string): Promise<PageServer> {
  const bundle = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  // An integrator's bundler says what esbuild says here: a warning (a bare import of a chunk
  // the package calls free of side effects, say) is a defect of the package, not noise.
  if (bundle.warnings.length > 0) {
    const lines = bundle.warnings.map((warning) => `${warning.id}: ${warning.text} (${warning.location?.file})`);
    throw new Error(`bundling ${entry} warned:\n${lines.join('\n')}`);
  }
  const script = bundle.outputFiles[0]?.text ?? '';
  const worker = readFileSync(join(require.resolve('msw/package.json'), '..', 'lib', 'mockServiceWorker.js'));
  const server = createServer((request, response) => {
    if (request.url === '/page.js') response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else if (request.url === '/mockServiceWorker.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(worker);
    } else {
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><script type="module" src="/page.js"></script>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
