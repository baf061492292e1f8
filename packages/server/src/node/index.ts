/** The Node entry of @ocs/server: listener, CLI and SQL store drivers. */
export { main as cliMain } from './cli.ts';
export { openStore } from './open-store.ts';
export { describeLocation, storeLocation } from './options.ts';
export { type RunningServer, serve } from './serve.ts';
export { openSqlStore, type SqlStore } from '../store/sql/index.ts';
