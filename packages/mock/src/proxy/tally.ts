/** What `ocs-mock proxy` saw, counted for the summary it prints at exit. */
import type { Exchange } from './forward.ts';

export class Tally {
  requests = 0;
  private readonly byOperation = new Map<string, { requests: number; violations: number }>();

  add(exchange: Exchange): void {
    this.requests++;
    const name = exchange.operationId ?? '(no operation)';
    const entry = this.byOperation.get(name) ?? { requests: 0, violations: 0 };
    entry.requests++;
    entry.violations += exchange.violations.length;
    this.byOperation.set(name, entry);
  }

  get violations(): number {
    let total = 0;
    for (const entry of this.byOperation.values()) total += entry.violations;
    return total;
  }

  /** `Summary: 12 requests, 2 violations` and, per operation that broke the document, its count. */
  summary(): string {
    const lines = [`Summary: ${this.requests} requests, ${this.violations} violations`];
    const broken = [...this.byOperation]
      .filter(([, e]) => e.violations > 0)
      .sort((a, b) => b[1].violations - a[1].violations);
    for (const [name, e] of broken) lines.push(`  ${name}: ${e.violations} violation(s) in ${e.requests} request(s)`);
    return lines.join('\n');
  }
}
