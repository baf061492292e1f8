/**
 * `npx ocs-mock` as people meet it, run as a real process (the built bin): `--help` and
 * `--version` exit 0; every mistake is one line on stderr and exit code 2; PORT and HOST are
 * honoured, and a flag beats them; a port in use is one line and exit code 1.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const bin = join(root, 'bin', 'ocs-mock.cjs');
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
const running = new Set<ChildProcess>();

beforeAll(() => {
  if (!existsSync(join(root, 'dist', 'server', 'cli.cjs'))) {
    throw new Error('dist/ is missing: run `npm run build -w @ocs/mock` (its test script builds first).');
  }
});

afterEach(() => {
  for (const child of running) {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) continue;
    process.kill(child.pid, 'SIGKILL');
  }
  running.clear();
});

function env(extra: Record<string, string>): NodeJS.ProcessEnv {
  const chosen = new Set(['PORT', 'HOST', 'OCS_DEBUG', 'OCS_CORS_ORIGIN']);
  return { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !chosen.has(name))), ...extra };
}

function spawnMock(args: string[], extra: Record<string, string> = {}): ChildProcess {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: env(extra) });
  running.add(child);
  child.once('close', () => running.delete(child));
  return child;
}

/** Runs the CLI to its end (killed after 15 s). */
function run(args: string[], extra: Record<string, string> = {}) {
  const child = spawnMock(args, extra);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.pid !== undefined && process.kill(child.pid, 'SIGKILL'), 15_000);
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      running.delete(child);
      resolve({ code, stdout, stderr });
    }),
  );
}

/** Starts a mock, returns its start-up line (JSON) and stops it by its pid. */
async function startAndStop(
  args: string[],
  extra: Record<string, string> = {},
  whileRunning?: (url: string) => Promise<void>,
): Promise<{ url: string }> {
  const child = spawnMock([...args, '--json'], extra);
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const line = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('close', (code) => reject(new Error(`ocs-mock exited (${code}) before starting`)));
  });
  const exited = new Promise((resolve) => child.once('close', resolve));
  if (whileRunning) await whileRunning((JSON.parse(line) as { url: string }).url);
  if (child.pid !== undefined) process.kill(child.pid, 'SIGTERM');
  await exited;
  return JSON.parse(line) as { url: string };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('help and version', () => {
  it('--help and -h exit 0', async () => {
    for (const flag of ['--help', '-h']) {
      const help = await run([flag]);
      expect(help).toMatchObject({ code: 0, stderr: '' });
      expect(help.stdout).toMatch(/^Usage: ocs-mock/);
    }
  });

  it('--help says what a rate limit of 0 does', async () => {
    const { stdout } = await run(['--help']);
    for (const option of ['--rate-limit-per-endpoint', '--rate-limit-total']) {
      const at = stdout.indexOf(option);
      expect(stdout.slice(at, stdout.indexOf('\n  --', at + 1)).replace(/\s+/g, ' ')).toMatch(
        /0 answers every request 429/,
      );
    }
  });

  it('--version prints the package version and exits 0', async () => {
    expect(await run(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });
});

const mistakes: Array<[string, string[], Record<string, string>, RegExp]> = [
  ['an unknown flag', ['--bogus'], {}, /^ocs-mock: unknown option --bogus\./],
  ['--port abc', ['--port', 'abc'], {}, /--port must be an integer from 0 to 65535, got 'abc'/],
  ['--port 70000', ['--port', '70000'], {}, /--port must be an integer from 0 to 65535, got '70000'/],
  [
    '--rate-limit-per-endpoint abc',
    ['--rate-limit-per-endpoint', 'abc'],
    {},
    /--rate-limit-per-endpoint must be a whole number of at least 0, got 'abc'/,
  ],
  [
    '--rate-limit-total 1e3',
    ['--rate-limit-total', '1e3'],
    {},
    /--rate-limit-total must be a whole number of at least 0/,
  ],
  [
    '--seed 1.5',
    ['--seed', '1.5'],
    {},
    /--seed must be an integer \(negative ones too, as createOcsMock takes\), got '1.5'/,
  ],
  ['--seed beyond a safe integer', ['--seed', '9007199254740993'], {}, /--seed must be an integer/],
  ['--journal-limit abc', ['--journal-limit', 'abc'], {}, /--journal-limit must be a whole number of at least 0/],
  ['a missing option value', ['--port'], {}, /--port needs a value/],
  // Which was meant? The last one was taken, unsaid.
  ['--port given twice', ['--port', '0', '--port', '1'], {}, /--port must be given once \(it takes one value\)/],
  ['a value for a switch', ['--json=yes'], {}, /--json takes no value/],
  ['an argument', ['serve'], {}, /unexpected argument 'serve'/],
  ['PORT that is not a number', [], { PORT: 'abc' }, /PORT must be an integer from 0 to 65535, got 'abc'/],
  // It would listen on every interface.
  ['an empty --host', ['--host=', '--port', '0'], {}, /--host needs an address/],
  // No URL holds them: they used to fail in the seed as an "internal error".
  ['a --host with a space', ['--host', 'bad host', '--port', '0'], {}, /--host must be an interface's address or name/],
  ['a --host with a port', ['--host', 'localhost:80', '--port', '0'], {}, /got 'localhost:80'/],
  ['a bracketed --host', ['--host', '[::1]', '--port', '0'], {}, /got '\[::1\]'/],
  ['a HOST that is no address', ['--port', '0'], { HOST: '999.1.1.1' }, /^ocs-mock: HOST must be an interface's/],
  // Longer than DNS allows: it failed in the resolver, as an "internal error" (getaddrinfo EINVAL).
  [
    'a --host longer than DNS allows',
    ['--host', 'a'.repeat(100_000), '--port', '0'],
    {},
    /--host must be an interface's address or name .*got 'a{64}…'\./,
  ],
  [
    'a HOST longer than DNS allows',
    ['--port', '0'],
    { HOST: 'a'.repeat(254) },
    /HOST must be an interface's address or name/,
  ],
  // Which was meant? It used to allow any origin.
  [
    '* with a named origin',
    ['--cors-origin', '*', '--cors-origin', 'https://a.example', '--port', '0'],
    {},
    /--cors-origin: \* \(any origin\) cannot be mixed with named origins \(https:\/\/a\.example\): give \* alone/,
  ],
  ['* with a named origin, by commas', ['--cors-origin', 'https://a.example,*', '--port', '0'], {}, /cannot be mixed/],
  // It used to start a mock no page could call, unsaid.
  ['an empty --cors-origin', ['--cors-origin=', '--port', '0'], {}, /--cors-origin needs an origin/],
  [
    'an OCS_CORS_ORIGIN that is no origin',
    ['--port', '0'],
    { OCS_CORS_ORIGIN: 'ftp://files.example' },
    /^ocs-mock: OCS_CORS_ORIGIN: 'ftp:\/\/files\.example' is not/,
  ],
];

describe('mistakes', () => {
  it.each(mistakes)('%s: one line, exit code 2', async (_, args, extra, message) => {
    const result = await run(args, extra);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(lines[0]).toMatch(message);
    expect(lines[0]).toMatch(/^ocs-mock: .* Run ocs-mock --help for usage\.$/);
  });
});

describe('OCS_CORS_ORIGIN', () => {
  /** The origin a preflight from `origin` is allowed for (null: refused). */
  const allowedFor = async (url: string, origin: string) =>
    (
      await fetch(`${url}/campaigns`, {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'GET' },
      })
    ).headers.get('access-control-allow-origin');

  it('is read when no --cors-origin is given, as ocs-server reads it', async () => {
    await startAndStop(['--port', '0'], { OCS_CORS_ORIGIN: 'https://app.example' }, async (url) => {
      expect(await allowedFor(url, 'https://app.example')).toBe('https://app.example');
      expect(await allowedFor(url, 'https://other.example')).toBeNull();
    });
  });

  it('gives way to --cors-origin; without either, any origin', async () => {
    await startAndStop(
      ['--port', '0', '--cors-origin', 'https://flag.example'],
      { OCS_CORS_ORIGIN: 'https://app.example' },
      async (url) => {
        expect(await allowedFor(url, 'https://flag.example')).toBe('https://flag.example');
        expect(await allowedFor(url, 'https://app.example')).toBeNull();
      },
    );
    await startAndStop(['--port', '0'], {}, async (url) => {
      expect(await allowedFor(url, 'https://any.example')).toBe('*');
    });
  });
});

describe('PORT and HOST', () => {
  it('are honoured when the flags are not given', async () => {
    const port = await freePort();
    expect((await startAndStop([], { PORT: String(port), HOST: 'localhost' })).url).toBe(`http://localhost:${port}/v1`);
  });

  it('an empty HOST counts as not set: the mock stays on 127.0.0.1', async () => {
    expect((await startAndStop(['--port', '0'], { HOST: '' })).url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  });

  it('lose to the flags', async () => {
    const started = await startAndStop(['--port', '0', '--host', '127.0.0.1'], { PORT: 'abc', HOST: 'localhost' });
    expect(started.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  });

  it('a port in use: one line, exit code 1', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      const result = await run(['--port', String(port)]);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `ocs-mock: port ${port} on 127.0.0.1 is in use; choose another with --port (0 picks a free one).\n`,
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
