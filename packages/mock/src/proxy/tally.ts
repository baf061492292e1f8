/** What `ocs-mock proxy` saw, counted for the summary it prints at exit. */
import type { Exchange } from './forward.ts';

/** Where an exchange is counted and reported: its operation, `/v1` paths with none, and what is outside `/v1`. */
export const noOperation = '(no operation)';
export const outsideApi = '(outside /v1)';

export function operationLabel(exchange: Exchange): string {
  return exchange.underContract ? (exchange.operationId ?? noOperation) : outsideApi;
}

export class Tally {
  requests = 0;
  private readonly byOperation = new Map<string, { requests: number; violations: number }>();

  add(exchange: Exchange): void {
    this.requests++;
    const name = operationLabel(exchange);
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

  /** Requests outside `/v1` (`/docs`, `/openapi.json`): passed through, not checked. */
  get passedThrough(): number {
    return this.byOperation.get(outsideApi)?.requests ?? 0;
  }

  /**
   * `Summary: 12 requests, 2 violations` (and how many were outside `/v1`, passed through
   * unchecked) and, per operation that broke the document, its count; `(no operation)`
   * counts the `/v1` paths the document does not have, apart from what was passed through.
   */
  summary(): string {
    const outside = this.passedThrough > 0 ? `, ${this.passedThrough} outside /v1 passed through unchecked` : '';
    const lines = [`Summary: ${this.requests} requests, ${this.violations} violations${outside}`];
    const broken = [...this.byOperation]
      .filter(([, e]) => e.violations > 0)
      .sort((a, b) => b[1].violations - a[1].violations);
    for (const [name, e] of broken) lines.push(`  ${name}: ${e.violations} violation(s) in ${e.requests} request(s)`);
    return lines.join('\n');
  }
}
