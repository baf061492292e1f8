/**
 * SIGINT and SIGTERM for `serve`: the first asks for a clean stop (requests under way get a
 * grace period); a second one, the impatient Ctrl-C, cuts the grace short, but the store is
 * still closed and the data directory's lock released before the process exits, with the
 * code a shell gives a process ended by that signal (130, 143). Until `dispose`, no signal
 * kills the process halfway through closing.
 */
import { constants } from 'node:os';

export interface StopSignal {
  /** Resolves at the first SIGINT or SIGTERM. */
  readonly first: Promise<NodeJS.Signals>;
  /** Runs `action` at a second signal (at once if one came already). */
  onForced(action: () => void): void;
  /** 0 after a clean stop; 128 + the signal's number when a second signal forced it. */
  exitCode(): number;
  /** Stops listening: signals act as Node's defaults again. */
  dispose(): void;
}

const stopSignals = ['SIGINT', 'SIGTERM'] as const;

export function listenForStop(): StopSignal {
  let signalled: NodeJS.Signals | undefined;
  let forced: NodeJS.Signals | undefined;
  const forcedActions: Array<() => void> = [];
  let resolveFirst: (signal: NodeJS.Signals) => void = () => undefined;
  const first = new Promise<NodeJS.Signals>((resolve) => (resolveFirst = resolve));
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled === undefined) {
      signalled = signal;
      resolveFirst(signal);
      return;
    }
    forced ??= signal;
    for (const action of forcedActions.splice(0)) action();
  };
  for (const signal of stopSignals) process.on(signal, onSignal);
  return {
    first,
    onForced(action) {
      if (forced) action();
      else forcedActions.push(action);
    },
    exitCode: () => (forced ? 128 + constants.signals[forced] : 0),
    dispose() {
      for (const signal of stopSignals) process.off(signal, onSignal);
    },
  };
}
