/** How long making a connection to PostgreSQL may take: its TCP handshake and its start-up (pg-client.ts). */
export const connectTimeoutMs = 10_000;
