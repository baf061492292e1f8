/**
 * `npm run mock`: Prism serving the static examples of the OpenAPI document on
 * http://127.0.0.1:4012/v1 (`PORT` and `HOST` override); 4010 is the reference server's
 * port and 4011 ocs-mock's.
 */
import { createServer } from 'node:net';
import { defaultPrismPort, startPrism } from './start-prism.ts';

const port = Number(process.env.PORT ?? defaultPrismPort);
const host = process.env.HOST ?? '127.0.0.1';
// Prism answers a port in use with its whole usage text: say it in one line instead.
const probe = createServer();
const taken = await new Promise<boolean>((resolve) => {
  probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'EADDRINUSE'));
  probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(false)));
});
if (taken) {
  process.stderr.write(`npm run mock: port ${port} on ${host} is in use; choose another with PORT=<n>.\n`);
  process.exit(1);
}
const mock = await startPrism({ port, host, log: (line) => console.log(line) });
console.log(
  `\nOCS examples mock (Prism) at ${mock.url}\nTry: curl -H 'Authorization: Bearer ocs_test' ${mock.url}/campaigns\n`,
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    mock.close().then(() => process.exit(0));
  });
}
