// server: the one local API (Express 5, loopback, per-launch token) for web mode and the desktop shell.
export { startServer, DEFAULT_PORT } from './start-server.ts';
export type { StartServerOptions, RunningServer } from './start-server.ts';
export { createApp } from './create-app.ts';
export type { AppOptions } from './create-app.ts';
export type { ServerContext } from './server-context.ts';
export type { Logger } from './logger.ts';
export { createStderrLogger, silentLogger, redactingLogger } from './logger.ts';
export { EventHub } from './event-hub.ts';
export { TOKEN_COOKIE } from './security.ts';
