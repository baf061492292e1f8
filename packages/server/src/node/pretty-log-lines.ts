/**
 * Log lines for a person at a terminal: `12:04:05.123 INFO  request method=GET status=200 ...`,
 * the level coloured when the terminal has colours. Made from pino's JSON line, so that what
 * a terminal shows and what a collector gets hold the same fields.
 */
const levelColours: Record<string, string> = {
  trace: '90',
  debug: '36',
  info: '32',
  warn: '33',
  error: '31',
  fatal: '35',
};

function fieldText(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? 'undefined';
}

/** One readable line (with its newline) from one JSON line; a line that is not JSON passes as it is. */
export function prettyLine(json: string, colours: boolean): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const { level, time, message, ...fields } = entry;
  const label = String(level ?? '')
    .toUpperCase()
    .padEnd(5);
  const colour = levelColours[String(level)];
  const clock = typeof time === 'string' ? time.slice(11, 23) : '';
  const parts = Object.entries(fields).map(([key, value]) => `${key}=${fieldText(value)}`);
  const levelText = colours && colour ? `\u001b[${colour}m${label}\u001b[39m` : label;
  return `${clock} ${levelText} ${String(message ?? '')}${parts.length > 0 ? ` ${parts.join(' ')}` : ''}\n`;
}

/** A pino destination that writes readable lines to `sink`. */
export function prettyDestination(
  sink: { write(line: string): unknown },
  colours: boolean,
): { write(line: string): void } {
  return {
    write(line) {
      sink.write(prettyLine(line.endsWith('\n') ? line.slice(0, -1) : line, colours));
    },
  };
}
