/**
 * The checks every runtime runs (issue 12, item 6), in plain ESM JavaScript so that each
 * runtime runs this very file, or a bundle of it, without a compile step of its own: the
 * client (a create and a get, a 429 retried after its `Retry-After`, paging across several
 * pages, a typed 404, a deadline against a route that never answers) and the webhook
 * verifier (a valid signature, a bad one, several secrets).
 *
 * It observes and does not judge: each check reports what it saw as one JSON line
 * (`RuntimeCheckLine`), and the Vitest side compares it with what the scripted API recorded.
 * Only web-standard APIs here (fetch, Request, Date): the same code runs in Node, Deno, Bun,
 * Chromium and edge-runtime.
 */

/**
 * @typedef {typeof import('@ocs/sdk')} Sdk
 * @typedef {import('./types.ts').RuntimeCheckInput} RuntimeCheckInput
 * @typedef {import('./types.ts').RuntimeCheckLine} RuntimeCheckLine
 * @typedef {import('./types.ts').RuntimeIdentity} RuntimeIdentity
 * @typedef {import('./types.ts').WebhookEntry} WebhookEntry
 */

/**
 * Runs every check in turn, reporting each, then `{ check: 'done' }`.
 *
 * @param {Sdk} sdk `@ocs/sdk` as the runtime resolved it
 * @param {WebhookEntry[]} webhookEntries the verifier builds to check
 * @param {RuntimeCheckInput} input
 * @param {(line: RuntimeCheckLine) => void} report
 */
export async function runRuntimeChecks(sdk, webhookEntries, input, report) {
  report({ check: 'runtime', observed: { ...runtimeIdentity() } });
  /** @param {string} check @param {() => Promise<Record<string, unknown>>} observe */
  const run = async (check, observe) => {
    try {
      report({ check, observed: await observe() });
    } catch (error) {
      report({ check, error: describe(error) });
    }
  };
  const client = sdk.createClient({ apiKey: input.apiKey, baseUrl: input.baseUrl });

  await run('call', async () => {
    const created = await sdk.createCampaign(client, { name: input.campaignName });
    const fetched = await sdk.getCampaign(client, { campaign_id: String(created.campaign_id) });
    return {
      createdStatus: created.status,
      createdId: created.campaign_id,
      createdName: created.campaign?.name,
      createdRequestId: created.requestId,
      idempotencyKey: created.idempotencyKey,
      fetchedId: fetched.campaign.id,
      fetchedName: fetched.campaign.name,
      fetchedRequestId: fetched.requestId,
    };
  });

  await run('retried 429', async () => {
    const started = Date.now();
    const result = await sdk.getCampaign(client, { campaign_id: input.rateLimitedCampaignId });
    return {
      status: result.status,
      name: result.campaign.name,
      requestId: result.requestId,
      elapsedMs: Date.now() - started,
    };
  });

  await run('paging', async () => {
    const params = { campaign_id: input.leadsCampaignId };
    const options = { pageSize: input.pageSize };
    /** @type {string[]} */
    const ids = [];
    for await (const lead of sdk.paginate(client, sdk.listLeads, params, options)) ids.push(lead.id);
    const pages = [];
    for await (const page of sdk.paginate(client, sdk.listLeads, params, options).pages()) {
      const { offset, count, total, limit, has_more, requestId } = page;
      pages.push({ offset, count, total, limit, has_more, requestId, items: page.items.map((lead) => lead.id) });
    }
    return { ids, pages };
  });

  await run('typed error', async () => {
    try {
      const result = await sdk.getCampaign(client, { campaign_id: input.missingCampaignId });
      return { resolved: result.status };
    } catch (error) {
      // Narrowed as the README shows: by class, then by the API's own code.
      const narrowed = error instanceof sdk.OcsNotFoundError && error.code === 'CAMPAIGN_NOT_FOUND';
      const apiError = error instanceof sdk.OcsApiError ? error : undefined;
      return {
        narrowed,
        isOcsError: error instanceof sdk.OcsError,
        isApiError: apiError !== undefined,
        name: apiError?.name ?? describe(error),
        status: apiError?.status,
        code: apiError?.code,
        requestId: apiError?.requestId,
        attempts: apiError?.attempts,
        message: apiError?.message,
      };
    }
  });

  await run('deadline', async () => {
    const started = Date.now();
    try {
      const result = await sdk.getCampaign(
        client,
        { campaign_id: input.hangingCampaignId },
        { timeoutMs: input.timeoutMs },
      );
      return { resolved: result.status };
    } catch (error) {
      const elapsedMs = Date.now() - started;
      // Asked while this runtime still runs: its exit would close the socket anyway.
      const probe = /** @type {{ closed: boolean }} */ (await (await fetch(input.hangingClosedUrl)).json());
      return {
        isTimeout: error instanceof sdk.OcsTimeoutError,
        isOcsError: error instanceof sdk.OcsError,
        name: error instanceof Error ? error.name : describe(error),
        elapsedMs,
        socketClosed: probe.closed,
      };
    }
  });

  for (const entry of webhookEntries) {
    await run(`webhooks: ${entry.label}`, () => checkWebhooks(entry, input.webhook));
  }
  report({ check: 'done' });
}

/**
 * The verifier of one entry: a valid delivery (as `{ payload, signature }` and as a
 * `Request`), a wrong signature, a tampered body, and several secrets.
 *
 * @param {WebhookEntry} entry
 * @param {import('./types.ts').WebhookCheckInput} input
 */
async function checkWebhooks({ url, module: webhooks }, input) {
  const { body, signature, secret, oldSecret, otherSecret } = input;
  /** @param {() => Promise<unknown>} verify the reason it failed with, or `accepted` */
  const outcome = async (verify) => {
    try {
      await verify();
      return 'accepted';
    } catch (error) {
      return error instanceof webhooks.WebhookVerificationError ? error.reason : describe(error);
    }
  };
  const request = new Request(input.url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'x-signature-256': signature },
  });
  return {
    url,
    sign: await webhooks.sign(body, secret),
    valid: (await webhooks.verifyAndParse({ payload: body, signature }, { secret })).idempotency_key,
    validRequest: (await webhooks.verifyAndParse(request, { secret })).idempotency_key,
    wrongSignature: await outcome(() =>
      webhooks.verifyAndParse({ payload: body, signature: input.wrongSignature }, { secret }),
    ),
    tamperedBody: await outcome(() => webhooks.verifyAndParse({ payload: `${body} `, signature }, { secret })),
    severalSecrets: (await webhooks.verifyAndParse({ payload: body, signature }, { secret: [oldSecret, secret] }))
      .idempotency_key,
    noSecretMatches: await outcome(() =>
      webhooks.verifyAndParse({ payload: body, signature }, { secret: [oldSecret, otherSecret] }),
    ),
    verifySeveral: await webhooks.verifySignature({ payload: body, signature, secret: [oldSecret, secret] }),
    verifyNone: await webhooks.verifySignature({ payload: body, signature, secret: [oldSecret, otherSecret] }),
  };
}

/** @returns {RuntimeIdentity} */
function runtimeIdentity() {
  const global = /** @type {{ Deno?: { version: { deno: string } }, Bun?: { version: string },
    process?: { versions?: { node?: string } }, EdgeRuntime?: string, navigator?: { userAgent?: string } }} */ (
    globalThis
  );
  return {
    node: global.process?.versions?.node ?? null,
    deno: global.Deno?.version.deno ?? null,
    bun: global.Bun?.version ?? null,
    edgeRuntime: global.EdgeRuntime ?? null,
    userAgent: global.navigator?.userAgent ?? null,
    process: typeof global.process,
  };
}

/** @param {unknown} error */
function describe(error) {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
