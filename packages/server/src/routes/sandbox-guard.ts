/**
 * Sandbox operations exist only while the server runs in sandbox mode (`config.sandbox`,
 * on for `npm start` and the mock, off with `--no-sandbox`); otherwise they answer
 * `404 SANDBOX_DISABLED`, after the same authentication and scope checks as any operation.
 */
import { SandboxClock } from '../domain/clock.ts';
import { ApiError } from '../http/api-error.ts';
import type { AppServices } from '../services.ts';

export function sandboxClock(services: AppServices): SandboxClock {
  if (!services.config.sandbox || !(services.clock instanceof SandboxClock)) {
    throw new ApiError(
      404,
      'SANDBOX_DISABLED',
      'Sandbox operations are off on this server: it was started without sandbox mode (ocs-server serve --no-sandbox).',
    );
  }
  return services.clock;
}

/** The clock as the API shows it. */
export function clockView(clock: SandboxClock) {
  return {
    now: clock.now().toISOString().replace(/Z$/, '+00:00'),
    offset_seconds: Math.round(clock.offsetMs / 1000),
  };
}
