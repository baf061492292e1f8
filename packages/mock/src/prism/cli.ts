/**
 * `npm run mock`: Prism serving the static examples of the OpenAPI document on
 * http://127.0.0.1:4012/v1 (`PORT` and `HOST` override); 4010 is the reference server's
 * port and 4011 ocs-mock's.
 */
import { startPrism } from './start-prism.ts';

const port = Number(process.env.PORT ?? 4012);
const host = process.env.HOST ?? '127.0.0.1';
const mock = await startPrism({ port, host, log: (line) => console.log(line) });
console.log(
  `\nOCS examples mock (Prism) at ${mock.url}\nTry: curl -H 'Authorization: Bearer ocs_test' ${mock.url}/campaigns\n`,
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    mock.close().then(() => process.exit(0));
  });
}
