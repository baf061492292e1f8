/**
 * The connect links' hosted page, `/connect/{token}`: a new account or a reconnect through
 * the form, then listed by `GET /v1/accounts`; links that expired, were used, or never
 * existed; two submissions racing; bad form input shown again; the redirect with
 * `account_id`; the pages' headers, escaping and methods. On every store.
 */
import { expect, it } from 'vitest';
import { type TestApi, createTestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';
import { useConnectLink } from '../../src/connect/use-connect-link.ts';

interface Account {
  id: string;
  platform: string;
  label: string;
  status: string;
  email: string | null;
  platform_username: string | null;
  daily_limit: number;
  email_auth: { spf: boolean; dkim: boolean; dmarc: boolean } | null;
  campaign_ids: string[];
  connected_at: string | null;
}

interface Failure {
  error: string;
  details: { errors: Array<{ field: string; type: string; message: string }> };
}

const start = new Date('2026-11-06T10:45:00.000Z');
const form = 'application/x-www-form-urlencoded';

describeBackends('connect page', (store) => {
  let api: TestApi;
  let now: Date;
  /** The demo organization's accounts by their seeded name (`acc_em_demo0002` ...). */
  let ids: Record<string, string>;
  const setup = async () => {
    now = start;
    api = await createTestApi(store(), { clock: { now: () => now } });
    const all = await store().accounts.list(api.organizationId, { limit: 500, offset: 0 });
    ids = Object.fromEntries(all.items.map((a) => [a.id.replace(/_[^_]+$/, ''), a.id]));
  };

  /** A new link's path, `/connect/cl_…`. */
  const createLink = async (body: Record<string, unknown>, on: TestApi = api): Promise<string> => {
    const answer = await on.call<{ url: string }>('POST', '/v1/accounts/connect-link', { body });
    expect(answer.status).toBe(201);
    return new URL(answer.body.url).pathname;
  };
  const open = (path: string, init: RequestInit = {}) => api.app.fetch(new Request(`http://localhost${path}`, init));
  const submit = (path: string, fields: Record<string, string> | string, headers: Record<string, string> = {}) =>
    open(path, {
      method: 'POST',
      headers: { 'Content-Type': form, ...headers },
      body: typeof fields === 'string' ? fields : new URLSearchParams(fields).toString(),
    });
  const accounts = async (query = '', on: TestApi = api) =>
    (await on.call<{ accounts: Account[] }>('GET', `/v1/accounts${query}`)).body.accounts;
  /** The account ID the "connected" page names. */
  const namedAccountId = (page: string) => /<code>(acc_\w+)<\/code>/.exec(page)?.[1];

  it('adds a LinkedIn account through the form, listed as connected for the link’s organization only', async () => {
    await setup();
    const other = await createTestApi(store());
    const path = await createLink({ platform: 'linkedin' });
    const page = await open(path);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<h1>Connect a LinkedIn account</h1>');
    expect(html).toContain('<strong>Test Outreach</strong>');
    expect(html).toContain('name="label"');
    expect(html).toContain('name="platform_username"');
    expect(html).toContain('until 2026-11-06 11:45 UTC');

    now = new Date('2026-11-06T11:00:00.000Z');
    const done = await submit(path, {
      label: '  Ada Lovelace ',
      platform_username: 'https://www.linkedin.com/in/ada-lovelace/',
    });
    expect(done.status).toBe(200);
    const connected = await done.text();
    expect(connected).toContain('<h1>Account connected</h1>');
    const accountId = namedAccountId(connected);
    expect(accountId).toMatch(/^acc_li_[A-Za-z0-9]{12}$/);

    const listed = (await accounts('?status=connected&platform=linkedin')).find((a) => a.id === accountId);
    expect(listed).toEqual({
      id: accountId,
      platform: 'linkedin',
      label: 'Ada Lovelace',
      status: 'connected',
      email: null,
      platform_username: 'ada-lovelace',
      daily_limit: 40,
      email_auth: null,
      campaign_ids: [],
      connected_at: '2026-11-06T11:00:00.000+00:00',
    });
    expect((await accounts('', other)).some((a) => a.id === accountId)).toBe(false);
    expect((await store().accounts.getConnectLink(path.split('/').pop() ?? ''))?.used_at).toBe(
      '2026-11-06T11:00:00.000Z',
    );
  });

  it('adds a mailbox, its address the label when none is given, its domain recorded as passing', async () => {
    await setup();
    const path = await createLink({ platform: 'email' });
    const html = await (await open(path)).text();
    expect(html).toContain('<h1>Connect a mailbox</h1>');
    expect(html).toContain('type="email"');
    const done = await submit(path, { email: 'growth@northwind.example', label: '' });
    expect(done.status).toBe(200);
    const accountId = namedAccountId(await done.text());
    expect(accountId).toMatch(/^acc_em_/);
    expect((await accounts()).find((a) => a.id === accountId)).toMatchObject({
      platform: 'email',
      label: 'growth@northwind.example',
      email: 'growth@northwind.example',
      platform_username: 'growth@northwind.example',
      status: 'connected',
      daily_limit: 50,
      email_auth: { spf: true, dkim: true, dmarc: true },
    });
  });

  it('reconnects a disconnected account of the organization: no new account, its settings kept', async () => {
    await setup();
    const accountId = ids.acc_em_demo0002 ?? '';
    const before = (await accounts()).find((a) => a.id === accountId);
    expect(before).toMatchObject({ status: 'disconnected', connected_at: null });
    const path = await createLink({ platform: 'email', account_id: accountId });
    const html = await (await open(path)).text();
    expect(html).toContain('<h1>Reconnect a mailbox</h1>');
    expect(html).toContain('<dd>outbound2@demo-outreach.example</dd>');
    expect(html).toContain(`<code>${accountId}</code>`);
    expect(html).not.toContain('<input');

    // A reconnect's form has no field: an empty body, as a browser sends it.
    const done = await submit(path, '');
    expect(done.status).toBe(200);
    const page = await done.text();
    expect(page).toContain('<h1>Account reconnected</h1>');
    expect(namedAccountId(page)).toBe(accountId);
    const after = await accounts();
    expect(after).toHaveLength(4);
    expect(after.find((a) => a.id === accountId)).toEqual({
      ...before,
      status: 'connected',
      connected_at: '2026-11-06T10:45:00.000+00:00',
    });
    expect(await accounts('?status=disconnected')).toEqual([]);
  });

  it('refuses an expired link with a 410 page saying to create a new one, and adds nothing', async () => {
    await setup();
    const path = await createLink({ platform: 'linkedin' });
    now = new Date('2026-11-06T11:45:00.000Z');
    for (const answer of [await open(path), await submit(path, { label: 'Ada', platform_username: 'ada' })]) {
      expect(answer.status).toBe(410);
      const html = await answer.text();
      expect(html).toContain('<h1>Connect link expired</h1>');
      expect(html).toContain('This link expired at 2026-11-06 11:45 UTC');
      expect(html).toContain('POST /v1/accounts/connect-link creates one');
    }
    expect(await accounts()).toHaveLength(4);
  });

  it('works once: within its hour a second submission or visit gets the first answer again, then the 410 page', async () => {
    await setup();
    const path = await createLink({ platform: 'linkedin' });
    const first = await submit(path, { label: 'Ada', platform_username: 'ada' });
    expect(first.status).toBe(200);
    const ada = namedAccountId(await first.text());
    expect(ada).toMatch(/^acc_li_/);
    // A reload that sends the form again (found by a review: it got "already used", and
    // redirect_url never learned the account), or another submission: the same account.
    for (const answer of [await submit(path, { label: 'Bob', platform_username: 'bob' }), await open(path)]) {
      expect(answer.status).toBe(200);
      expect(namedAccountId(await answer.text())).toBe(ada);
    }
    // Used stays used once the hour is over.
    now = new Date('2026-11-06T13:00:00.000Z');
    const late = await open(path);
    expect(late.status).toBe(410);
    expect(await late.text()).toContain('<h1>Connect link already used</h1>');
    const labels = (await accounts('?platform=linkedin')).map((a) => a.label);
    expect(labels.sort()).toEqual(['Ada', 'Lena Fischer', 'Sam Carter']);
  });

  it('lets exactly one of two racing submissions connect; both answers name that account', async () => {
    await setup();
    const path = await createLink({ platform: 'email' });
    const answers = await Promise.all([
      submit(path, { email: 'first@northwind.example' }),
      submit(path, { email: 'second@northwind.example' }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const named = await Promise.all(answers.map(async (a) => namedAccountId(await a.text())));
    const added = (await accounts('?platform=email')).filter((a) => a.email?.endsWith('@northwind.example'));
    expect(added).toHaveLength(1);
    expect(named).toEqual([added[0]?.id, added[0]?.id]);

    const reconnect = await createLink({ platform: 'email', account_id: ids.acc_em_demo0002 });
    const both = await Promise.all([submit(reconnect, ''), submit(reconnect, '')]);
    expect(both.map((a) => a.status)).toEqual([200, 200]);
  });

  it('answers a 404 page for a link that does not exist, whatever its form, never a 500', async () => {
    await setup();
    for (const path of [
      '/connect/cl_AAAAAAAAAAAAAAAAAAAAAAAA',
      '/connect/cl_%00',
      '/connect/x',
      '/connect/%F0%9F%98%80',
    ]) {
      for (const answer of [await open(path), await submit(path, { label: 'x' })]) {
        expect(answer.status, path).toBe(404);
        expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(await answer.text()).toContain('<h1>Connect link not found</h1>');
      }
    }
  });

  it('shows the form again with a message at each bad field and what was typed; the link stays usable', async () => {
    await setup();
    const linkedin = await createLink({ platform: 'linkedin' });
    const cases: Array<[Record<string, string> | string, string, string]> = [
      [{}, 'label', 'Enter the display name.'],
      [{ label: 'Ada' }, 'platform_username', 'Enter the LinkedIn username.'],
      [{ label: 'Ada', platform_username: 'a b' }, 'platform_username', 'linkedin.com/in/username: 3 to 100'],
      [{ label: 'Ada\u0000', platform_username: 'ada' }, 'label', 'holds a character that cannot be used'],
      // A label that shows as another (bidi controls), or on two lines (found by a review).
      [{ label: '\u202emoc.live', platform_username: 'ada' }, 'label', 'holds a character that cannot be used'],
      [{ label: 'Ada\u2028Bob', platform_username: 'ada' }, 'label', 'holds a character that cannot be used'],
      [{ label: 'Ada\u2066', platform_username: 'ada' }, 'label', 'holds a character that cannot be used'],
      [{ label: 'x'.repeat(201), platform_username: 'ada' }, 'label', 'at most 200 characters'],
      ['label=Ada&label=Bob&platform_username=ada', 'label', 'was sent more than once'],
      ['label=%FF&platform_username=ada', 'label', 'holds a character that cannot be used'],
    ];
    for (const [fields, field, message] of cases) {
      const answer = await submit(linkedin, fields);
      expect(answer.status, JSON.stringify(fields)).toBe(400);
      const html = await answer.text();
      expect(html).toContain('Please correct the fields marked below.');
      expect(html).toContain(`<p class="field-problem" id="${field}-problem">`);
      expect(html).toContain(message);
      expect(html).toMatch(new RegExp(`id="${field}"\\s+name="${field}"`));
    }
    const typed = await (await submit(linkedin, { label: 'Ada "A" <Lovelace>', platform_username: '!' })).text();
    expect(typed).toContain('value="Ada &quot;A&quot; &lt;Lovelace&gt;"');

    const email = await createLink({ platform: 'email' });
    for (const address of ['', 'not-an-address', 'a@b', 'a b@example.com', `${'x'.repeat(250)}@example.com`]) {
      const answer = await submit(email, { email: address });
      expect(answer.status, address).toBe(400);
      expect(await answer.text()).toContain('id="email-problem"');
    }
    expect(await accounts()).toHaveLength(4);
    expect((await submit(linkedin, { label: 'Ada', platform_username: 'ada' })).status).toBe(200);
    expect((await submit(email, { email: 'ada@example.com' })).status).toBe(200);
  });

  it('refuses a body that is not a small form: 415 and 413 pages, the link left unused', async () => {
    await setup();
    const path = await createLink({ platform: 'linkedin' });
    const json = await submit(path, JSON.stringify({ label: 'Ada' }), { 'Content-Type': 'application/json' });
    expect(json.status).toBe(415);
    expect(await json.text()).toContain('application/x-www-form-urlencoded');
    // A coded body is not read as a form (it was, as an empty one: "Enter the display name").
    const coded = await submit(path, 'label=Ada&platform_username=ada', { 'Content-Encoding': 'gzip' });
    expect(coded.status).toBe(415);
    expect(await coded.text()).toContain('Content-Encoding');
    const large = await submit(path, { label: 'x'.repeat(9000), platform_username: 'ada' });
    expect(large.status).toBe(413);
    expect(large.headers.get('cache-control')).toBe('no-store');
    expect(
      (await submit(path, { label: 'Ada', platform_username: 'ada' }, { 'Content-Type': `${form}; charset=UTF-8` }))
        .status,
    ).toBe(200);
  });

  it('sends the browser to redirect_url with account_id added (303), keeping its parameters and fragment', async () => {
    await setup();
    const path = await createLink({
      platform: 'email',
      redirect_url: 'https://app.northwind.example/settings/senders?tab=email&q=a%20b+c#added',
    });
    const page = await open(path);
    // The form may be sent here, and its answer may send the browser on to redirect_url.
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self' https://app.northwind.example;");
    const done = await submit(path, { email: 'ada@northwind.example' });
    expect(done.status).toBe(303);
    const location = done.headers.get('location') ?? '';
    const accountId = (await accounts()).find((a) => a.email === 'ada@northwind.example')?.id ?? '';
    expect(location).toBe(
      `https://app.northwind.example/settings/senders?tab=email&q=a%20b+c&account_id=${accountId}#added`,
    );
    expect(done.headers.get('referrer-policy')).toBe('no-referrer');
    expect(done.headers.get('cache-control')).toBe('no-store');
    expect(await done.text()).toBe('');

    const plain = await createLink({
      platform: 'email',
      account_id: ids.acc_em_demo0002,
      redirect_url: 'http://localhost:5173/done',
    });
    expect((await submit(plain, '')).headers.get('location')).toBe(
      `http://localhost:5173/done?account_id=${ids.acc_em_demo0002}`,
    );
  });

  it('refuses a redirect_url the page could not send the browser to when the link is made', async () => {
    await setup();
    for (const [redirect, message] of [
      ['javascript:alert(1)', /must be an http or https URL/],
      ['myapp://connected', /must be an http or https URL/],
      ['http://[::1]:5173/done', /not an IPv6 address/],
    ] as const) {
      const answer = await api.call<Failure>('POST', '/v1/accounts/connect-link', {
        body: { platform: 'email', redirect_url: redirect },
      });
      expect(answer.status, redirect).toBe(400);
      expect(answer.body.error).toBe('VALIDATION_ERROR');
      expect(answer.body.details.errors).toEqual([
        { field: 'body.redirect_url', type: 'format', message: expect.stringMatching(message) },
      ]);
    }
  });

  it('shows the connected page instead of following a redirect_url that is not http or https (a link made before they were refused)', async () => {
    await setup();
    const path = await createLink({ platform: 'linkedin' });
    const token = path.split('/').pop() as string;
    const link = await store().accounts.getConnectLink(token);
    await store().accounts.insertConnectLink({
      ...(link as NonNullable<typeof link>),
      token: `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`,
      redirect_url: 'javascript:alert(1)',
    });
    const older = `/connect/${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    await expectNamedPage(older);
  });

  async function expectNamedPage(path: string): Promise<void> {
    const page = await open(path);
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self';");
    const done = await submit(path, { label: 'Ada', platform_username: 'ada' });
    expect(done.status).toBe(200);
    expect(done.headers.get('location')).toBeNull();
    const html = await done.text();
    expect(html).toContain('<h1>Account connected</h1>');
    expect(html).not.toContain('javascript:');
  }

  it('sends every page with the headers that keep its token to itself, and no script', async () => {
    await setup();
    const path = await createLink({ platform: 'linkedin' });
    const answers = [
      await open(path),
      await submit(path, {}),
      await open('/connect/cl_AAAAAAAAAAAAAAAAAAAAAAAA'),
      await open(path, { method: 'PUT' }),
      await submit(path, { label: 'Ada', platform_username: 'ada' }),
      await open(path),
    ];
    now = new Date('2026-11-06T13:00:00.000Z');
    answers.push(await open(path));
    expect(answers.map((a) => a.status)).toEqual([200, 400, 404, 405, 200, 200, 410]);
    for (const answer of answers) {
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
      expect(answer.headers.get('x-request-id')).toMatch(/^req_/);
      const policy = answer.headers.get('content-security-policy') ?? '';
      expect(policy).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'; form-action 'self'; /);
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).not.toContain('script-src');
      expect(policy).not.toContain('unsafe-inline');
      const html = await answer.text();
      expect(html).not.toContain('<script');
      // The stylesheet is the one the policy's hash allows.
      const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(style)));
      expect(policy).toContain(`'sha256-${btoa(String.fromCharCode(...digest))}'`);
    }
    // The page needs no API key and spends no budget: no RateLimit headers.
    expect(answers[0]?.headers.get('ratelimit-remaining')).toBeNull();
  });

  it('escapes what it shows: a label holding <script>, an organization name with markup', async () => {
    await setup();
    const accountId = ids.acc_li_demo0002 ?? '';
    await store().accounts.update(api.organizationId, accountId, {
      label: '<script>alert("x")</script>',
      platform_username: '"><img src=x onerror=alert(1)>',
    });
    await store().organizations.update(api.organizationId, { name: 'Acme & <b>Sons</b>' });
    const path = await createLink({ platform: 'linkedin', account_id: accountId });
    const html = await (await open(path)).text();
    expect(html).toContain('<dd>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</dd>');
    expect(html).toContain('<dd>&quot;&gt;&lt;img src=x onerror=alert(1)&gt;</dd>');
    expect(html).toContain('<strong>Acme &amp; &lt;b&gt;Sons&lt;/b&gt;</strong>');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    const done = await (await submit(path, '')).text();
    expect(done).toContain('<strong>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</strong>');
    expect(done).not.toContain('<script');
  });

  it('answers 405 with Allow to other methods, and HEAD with the headers of GET', async () => {
    await setup();
    const path = await createLink({ platform: 'linkedin' });
    for (const method of ['PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      const answer = await open(path, { method });
      expect(answer.status, method).toBe(405);
      expect(answer.headers.get('allow')).toBe('GET, HEAD, POST');
      expect(await answer.text()).toContain('<h1>Method not allowed</h1>');
    }
    // HEAD is the page's GET (Hono drops the body): the same status and headers.
    const head = await open(path, { method: 'HEAD' });
    const get = await open(path);
    expect(head.status).toBe(200);
    const headers = (answer: Response) => [...answer.headers].filter(([name]) => name !== 'x-request-id');
    expect(headers(head)).toEqual(headers(get));
    expect(head.headers.get('content-type')).toBe('text/html; charset=utf-8');
    // Nothing under /connect/ other than a link's page: the API's 404.
    expect((await open('/connect/')).status).toBe(404);
    expect((await open(`${path}/extra`)).headers.get('content-type')).toBe('application/json');
    // The link was not used by any of these.
    expect((await open(path)).status).toBe(200);
  });

  it('refuses the link of a deactivated organization with a 403 page', async () => {
    await setup();
    const path = await createLink({ platform: 'linkedin' });
    await store().organizations.update(api.organizationId, { is_active: false });
    for (const answer of [await open(path), await submit(path, { label: 'Ada', platform_username: 'ada' })]) {
      expect(answer.status).toBe(403);
      expect(await answer.text()).toContain('<h1>Organization deactivated</h1>');
    }
  });

  it('refuses to add a sender the organization has (409, the form again), naming the account to reconnect', async () => {
    await setup();
    for (const [platform, fields, field, existing] of [
      ['email', { email: 'Outbound2@Demo-Outreach.example' }, 'email', ids.acc_em_demo0002],
      ['linkedin', { label: 'Sam', platform_username: 'SAM-carter-demo' }, 'platform_username', ids.acc_li_demo0001],
    ] as const) {
      const path = await createLink({ platform });
      const answer = await submit(path, fields);
      expect(answer.status, platform).toBe(409);
      const html = await answer.text();
      expect(html).toContain(`<p class="field-problem" id="${field}-problem">`);
      expect(html).toContain(`create a link with account_id ${existing}`);
      // The link is not used, and nothing was added.
      expect((await store().accounts.getConnectLink(path.split('/').pop() as string))?.used_at).toBeNull();
    }
    expect(await accounts()).toHaveLength(4);
  });

  it('adds a sender once when two links submit it at the same moment: one 200, one 409 naming it', async () => {
    await setup();
    for (const [platform, fields] of [
      ['email', [{ email: 'same@northwind.example' }, { email: 'SAME@Northwind.example' }]],
      [
        'linkedin',
        [
          { label: 'Ada', platform_username: 'ada-same' },
          { label: 'Ada L', platform_username: 'Ada-Same' },
        ],
      ],
    ] as const) {
      const paths = [await createLink({ platform }), await createLink({ platform })];
      const answers = await Promise.all(paths.map((path, i) => submit(path, fields[i] ?? {})));
      expect(answers.map((a) => a.status).sort(), platform).toEqual([200, 409]);
      const added = (await accounts(`?platform=${platform}`)).filter((a) =>
        [a.email, a.platform_username].some((name) => name?.toLowerCase().includes('same')),
      );
      expect(added, platform).toHaveLength(1);
      const refused = answers.find((a) => a.status === 409);
      expect(await refused?.text()).toContain(`create a link with account_id ${added[0]?.id}`);
    }
  });

  it('does not use the link of an organization deactivated after the page checked it', async () => {
    await setup();
    const path = await createLink({ platform: 'linkedin' });
    const token = path.split('/').pop() as string;
    await store().organizations.update(api.organizationId, { is_active: false });
    // The claim itself, as the page makes it once the form came (its own check was earlier).
    const fields = { platform: 'linkedin', label: 'Ada', platform_username: 'ada' } as const;
    expect(await useConnectLink(store(), token, fields, now)).toEqual({ outcome: 'deactivated' });
    expect((await store().accounts.getConnectLink(token))?.used_at).toBeNull();
    expect((await store().accounts.list(api.organizationId, { limit: 500, offset: 0 })).items).toHaveLength(4);
  });
});
