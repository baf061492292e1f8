/** Memory implementation of sandbox mode's shared state. */
import type { SandboxStateStore } from '../types.ts';
import type { MemoryState } from './state.ts';

const clockKey = 'clock';

export function memorySandbox(state: MemoryState): SandboxStateStore {
  return {
    async clockOffset() {
      return state.sandbox.get(clockKey)?.offset_ms ?? 0;
    },
    async saveClockOffset(offsetMs) {
      const saved = state.sandbox.get(clockKey)?.offset_ms ?? 0;
      if (offsetMs > saved) state.sandbox.set(clockKey, { offset_ms: offsetMs });
    },
  };
}
