/**
 * EXTENSION POINT (issue 5, the campaign engine): the sandbox operations.
 *
 * Issue 5 adds, under a `Sandbox` tag of the OpenAPI document, operations that simulate a
 * prospect's reply and engagement (email opened, connection accepted, meeting booked,
 * booking confirmed) and advance the sandbox clock. The mock needs no code for them to
 * work: the engine's application routes every operation of the document, with the same
 * auth, validation, rate limits and scenarios, and `mock.http` and `mock.scenarios` are
 * typed from the document, so they cover the new operationIds as soon as the generated
 * types have them. The mock already runs its application with `config.sandbox: true`.
 *
 * What this module will hold then: conveniences on the mock handle that call those
 * operations in process (without a client) and without counting against the test's rate
 * limits, for example
 *
 *   mock.sandbox.reply({ leadId, campaignId, channel, message })   // delivers prospect_response
 *   mock.sandbox.engage({ leadId, campaignId, kind: 'email_opened' })
 *   mock.sandbox.advanceClock({ days: 3 })                           // runs due steps
 *
 * built as `createSandbox(engine)` over `Engine.app` and `Engine.clock` (the clock must
 * become the engine's advanceable sandbox clock, and `reset()` must put it back), and
 * `webhooks/event.ts` will call the server's own event builder instead of building the
 * event here. Nothing of it exists before issue 5 lands: the mock exposes no sandbox API
 * today rather than one that fails.
 */
export {};
