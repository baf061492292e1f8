/**
 * How long the service waits for a webhook receiver's answer (section 6: "within 75
 * seconds"), which the reference server's delivery policy holds too. Kept here rather than
 * imported from @ocs/server: the `ocs` program is bundled without the server's engine.
 */
export const receiverDeadlineMs = 75_000;
