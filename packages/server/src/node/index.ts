/** The Node entry of @ocs/server: listener, CLI, SQL store drivers and the webhook transport. */
export { main as cliMain } from './cli.ts';
export { openStore } from './open-store.ts';
export { describeLocation, storeLocation } from './options.ts';
export { type RunningServer, serve } from './serve.ts';
export { openSqlStore, type SqlStore } from '../store/sql/index.ts';
export {
  createNodeWebhookTransport,
  type NodeWebhookTransport,
  type NodeWebhookTransportOptions,
} from './webhook-transport.ts';
