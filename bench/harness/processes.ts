/**
 * Child processes of a bench (servers, receivers, Prism): each is stopped by its own PID,
 * never by name, and any still running when the bench ends or is stopped is stopped too.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

const running = new Set<ChildProcess>();

export function track(child: ChildProcess): ChildProcess {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
export function stop(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(kill);
      running.delete(child);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Stops every tracked child still running (each by its PID). */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((child) => stop(child)));
}

/** Resident set size of a process in MB, from /proc/<pid>/status (VmRSS). Linux only. */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) / 1024;
}

// A bench stopped by the runner (its time limit) or by Ctrl-C leaves nothing running.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const child of running) child.kill('SIGTERM');
    process.exit(130);
  });
}
