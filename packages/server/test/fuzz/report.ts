/** The session's figures as text: a table per class, then every failure with what to replay it. */
import type { SessionResult } from './session.ts';

export function formatTable(result: SessionResult, store: string): string {
  const rows = Object.entries(result.perClass).map(([cls, t]) => [
    cls,
    String(t.cases),
    String(t.reachedHandler),
    String(t.serverErrors),
    String(t.contractViolations),
    Object.entries(t.statuses)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([status, n]) => `${status}:${n}`)
      .join(' '),
  ]);
  const total = Object.values(result.perClass).reduce(
    (sum, t) => ({
      cases: sum.cases + t.cases,
      reached: sum.reached + t.reachedHandler,
      server: sum.server + t.serverErrors,
      contract: sum.contract + t.contractViolations,
    }),
    { cases: 0, reached: 0, server: 0, contract: 0 },
  );
  rows.push(['total', String(total.cases), String(total.reached), String(total.server), String(total.contract), '']);
  const header = ['class', 'cases', 'reached handler', 'unlisted 5xx', 'contract violations', 'statuses'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] as number))).join('  ');
  return [
    `fuzz on ${store}: seed ${result.seed}, ${result.requests} requests over ${result.operations} operations in ${(result.durationMs / 1000).toFixed(1)} s` +
      (result.unsendable > 0 ? ` (${result.unsendable} not sendable: Request refused the header)` : ''),
    line(header),
    ...rows.map(line),
  ].join('\n');
}

export function formatFailures(result: SessionResult, limit = Number.POSITIVE_INFINITY): string {
  const shown = result.failures.slice(0, limit);
  const lines = shown.map((outcome, index) =>
    [
      `#${index + 1} ${outcome.case.operationId} [${outcome.case.class}] ${outcome.case.note}`,
      `  request:  ${JSON.stringify(outcome.request)}`,
      `  response: ${outcome.status} ${JSON.stringify(outcome.body)}`,
      `  failures: ${outcome.failures.join('; ')}`,
      ...outcome.logged.map((entry) => `  logged:   ${entry.split('\n').slice(0, 4).join(' | ')}`),
    ].join('\n'),
  );
  if (result.failures.length > shown.length) lines.push(`… and ${result.failures.length - shown.length} more`);
  return lines.join('\n');
}

/** Failures grouped by operation, class and first failure: one line each, for an overview. */
export function summarizeFailures(result: SessionResult): string {
  const groups = new Map<string, number>();
  for (const outcome of result.failures) {
    const key = `${outcome.case.operationId} [${outcome.case.class}] ${outcome.status}: ${outcome.failures[0] ?? ''}`;
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  return [...groups.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([key, n]) => `${String(n).padStart(5)}  ${key.slice(0, 220)}`)
    .join('\n');
}
