// A fresh process, as a test file starts: import the mock and MSW, create the mock, start
// MSW, and get the first answer through it. Prints its timings as one JSON line.
const started = performance.now();
const { createOcsMock } = await import('@ocs/mock/node');
const { setupServer } = await import('msw/node');
const imported = performance.now();
const mock = await createOcsMock();
const server = setupServer(...mock.handlers);
server.listen({ onUnhandledRequest: 'error' });
const response = await fetch(`${mock.baseUrl}/campaigns`, { headers: { Authorization: `Bearer ${mock.apiKey}` } });
const body = await response.json();
const answered = performance.now();
server.close();
console.log(
  JSON.stringify({
    status: response.status,
    campaigns: body.total,
    importMs: imported - started,
    inProcessMs: answered - imported,
    sinceProcessStartMs: answered,
  }),
);
