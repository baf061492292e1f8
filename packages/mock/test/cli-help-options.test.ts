/**
 * Each command-line tool of the package takes every option its `--help` lists, `--debug`
 * included: `ocs-mock --help` lists it, and `ocs-mock proxy` refused it as an unknown option.
 * Real processes: the built `ocs-mock` and `ocs` bins, and `npm run mock`'s script (Prism's
 * launcher, from source as the script runs it; none of these starts Prism).
 */
import { createServer, type Server, type Socket } from 'node:net';
import { get } from 'node:http';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ocsBin, ocsMockBin, requireBuilds, run, stopAll, watch } from './support/local-processes.ts';

beforeAll(requireBuilds);
afterEach(stopAll);

const prismCli = join(import.meta.dirname, '..', 'src', 'prism', 'cli.ts');

interface Tool {
  name: string;
  run(args: string[]): ReturnType<typeof run>;
}

const tools: Tool[] = [
  { name: 'ocs-mock', run: (args) => run(ocsMockBin, args) },
  { name: 'ocs-mock proxy', run: (args) => run(ocsMockBin, ['proxy', ...args]) },
  { name: 'ocs', run: (args) => run(ocsBin, args) },
  { name: 'ocs listen', run: (args) => run(ocsBin, ['listen', ...args]) },
  { name: 'ocs trigger', run: (args) => run(ocsBin, ['trigger', ...args]) },
  // `node --import tsx src/prism/cli.ts`, as the package's `mock` script runs it.
  { name: 'npm run mock', run: (args) => run('--import', ['tsx', prismCli, ...args]) },
];

/** The options a help text lists (`  --port <n>   ...`, `  -h, --help ...`), and whether each takes a value. */
function listedOptions(help: string): { option: string; takesValue: boolean }[] {
  return [...help.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)( <[^>]+>)?/gm)].map((match) => ({
    option: match[1] as string,
    takesValue: match[2] !== undefined,
  }));
}

describe("every option a tool's --help lists is one its parser takes", () => {
  it.each(tools)(
    '$name',
    async (tool) => {
      const help = await tool.run(['--help']);
      expect(help.code).toBe(0);
      const listed = listedOptions(help.stdout).filter(({ option }) => option !== '--help' && option !== '--version');
      expect(listed.length).toBeGreaterThan(0);
      for (const { option, takesValue } of listed) {
        // An option the parser takes is read, and the unknown one after it is what is refused.
        const args = [option, ...(takesValue ? ['1'] : []), '--no-such-option'];
        const result = await tool.run(args);
        expect(result.stderr, `${tool.name} ${args.join(' ')}`).toMatch(/unknown option --no-such-option\./);
        expect(result.code).toBe(2);
      }
    },
    60_000,
  );

  it('--debug is among the options of ocs-mock proxy --help, as of ocs-mock --help', async () => {
    for (const args of [['--help'], ['proxy', '--help']]) {
      const { code, stdout } = await run(ocsMockBin, args);
      expect(code).toBe(0);
      expect(stdout).toMatch(/^ {2}--debug +print the stack of an internal error \(or OCS_DEBUG=1\)$/m);
    }
  });
});

describe('ocs-mock proxy --debug', () => {
  it('is taken after proxy, or before it as ocs-mock takes its switch: the mistake that follows is what is said', async () => {
    for (const args of [
      ['proxy', '--debug', '--target', 'ftp://x'],
      ['--debug', 'proxy', '--target', 'ftp://x'],
    ]) {
      const { code, stderr } = await run(ocsMockBin, args);
      expect(stderr, args.join(' ')).toBe(
        "ocs-mock: --target must be an http(s) URL, got 'ftp://x'. Run ocs-mock --help for usage.\n",
      );
      expect(code).toBe(2);
    }
  });

  describe('a request the proxy could not pass on (the target hangs up inside its answer)', () => {
    let upstream: Server;
    let target = '';
    beforeAll(async () => {
      // Headers promising 100 bytes, then one and the connection closed: fetch's body read fails.
      upstream = createServer((socket: Socket) => {
        socket.once('data', () => {
          socket.end('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{');
        });
      });
      await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
      target = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

    /** Starts the proxy, sends it one request outside /v1, and returns the proxy once it said why it failed. */
    async function failOneRequest(extra: string[]) {
      const proxy = watch(ocsMockBin, ['proxy', '--target', target, '--port', '0', ...extra]);
      const [, url = ''] = await proxy.waitFor(/OCS contract proxy at (\S+)\/v1 /);
      const status = await new Promise<number>((resolve, reject) =>
        get(`${url}/assets/x`, (answer) => {
          answer.resume();
          resolve(answer.statusCode ?? 0);
        }).on('error', reject),
      );
      expect(status).toBe(500);
      await proxy.waitFor(/^proxy error: .+$/m);
      return proxy;
    }

    it('prints the stack under --debug', async () => {
      const proxy = await failOneRequest(['--debug']);
      await proxy.waitFor(/^\s+at /m);
      expect(await proxy.stop('SIGINT')).toBe(0);
    });

    it('prints the one line without it', async () => {
      const proxy = await failOneRequest([]);
      expect(await proxy.stop('SIGINT')).toBe(0);
      expect(proxy.stderr()).toBe('');
    });
  });
});
