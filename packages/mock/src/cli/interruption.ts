/**
 * Ctrl-C during `ocs trigger`: the step under way (one API call, or calls that only make
 * sense together, such as a campaign and its senders) is finished, then the command stops
 * at its next checkpoint and says in one line what it did and that no event was sent. So a
 * Ctrl-C never leaves a campaign half made, and a person knows what is left on the server.
 * A line says at once that it is stopping; a Ctrl-C during the last step (the reply) lets
 * the command finish, since the event is then on its way, and ends the wait for how the
 * delivery's first attempt went (`signal`). A wait between two steps ends at once, too.
 */
import { CliFailure } from '@ocs/server/cli-kit';

/** Stopped by a signal before the work was done (exit code 130, as a shell reports Ctrl-C). */
export class Interrupted extends CliFailure {
  override name = 'Interrupted';
}

const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export class Interruption {
  private requested = false;
  /** Aborted at the first signal: ends a wait at once (`signal`). */
  private readonly stopping = new AbortController();
  /** What was done so far, by kind: a later entry of a kind replaces the earlier one. */
  private readonly done = new Map<string, string>();
  private readonly onSignal = () => {
    // Said at once (a step may wait for a slow server); a second Ctrl-C does not cut the
    // step short: that is what would leave it half made.
    process.stderr.write(
      this.requested
        ? 'ocs: still finishing the step under way; a moment.\n'
        : 'ocs: stopping once the step under way is done.\n',
    );
    this.requested = true;
    this.stopping.abort();
  };

  /** Listens for Ctrl-C (and SIGTERM, SIGHUP) until `close()`. */
  constructor(private readonly notDone: string) {
    for (const signal of signals) process.on(signal, this.onSignal);
  }

  /**
   * Aborted when a signal comes: for a wait that a Ctrl-C ends at once (between two steps,
   * or for the delivery's outcome), never for a step under way.
   */
  get signal(): AbortSignal {
    return this.stopping.signal;
  }

  /** Records a finished step, said if the command is interrupted later. */
  did(kind: string, what: string): void {
    this.done.set(kind, what);
  }

  /** Stops here (throws `Interrupted`) when a signal came since the start. */
  checkpoint(): void {
    if (!this.requested) return;
    const done = [...this.done.values()];
    throw new Interrupted(
      `interrupted: ${this.notDone}. ${done.length > 0 ? `Done before stopping: ${done.join('; ')}.` : 'Nothing was changed on the server.'}`,
    );
  }

  close(): void {
    for (const signal of signals) process.off(signal, this.onSignal);
  }
}
