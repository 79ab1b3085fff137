import { CanvasChatStore } from '../runtime/ask-canvas/index.ts';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Router } from 'express';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { AtomicFileSystem } from '../runtime/fs/index.ts';
import {
  CanvasBackup,
  CanvasStore,
  CommitLedger,
  commitLedgerDirectory,
  PutAsideStore,
  environmentWithDotenv,
  removeOrphanTemps,
  assertNoServerRunning,
  removeOwnServerFile,
  writeServerFile,
  SecretsStore,
  type SecretsCipher,
  SettingsStore,
  canvasesDirectory,
  ensureWeftHome,
} from '../runtime/fs/index.ts';
import { DecisionJudge, ModelRegistry, currentKeyOrigin } from '../runtime/models/index.ts';
import { journalPutAsides } from '../runtime/memory/index.ts';
import { closeAtlasService } from './atlas/atlas-registry.ts';
import { closeTeamIndexes } from './team-index-registry.ts';
import { memoryStoreFor } from './routes/memory-store-for.ts';
import { createApp } from './create-app.ts';
import { EventHub } from './event-hub.ts';
import { createStderrLogger, redactingLogger, type Logger } from './logger.ts';
import type { HashPort } from '../src/core/index.ts';
import { nodeHashPort } from '../runtime/hash/index.ts';
import { McpClients, mcpConfigPath, WebSearchConfigStore } from '../runtime/tools/index.ts';
import { BRAVE_SEARCH_KEY_ID } from '../protocol/index.ts';
import { protectedFolders } from './protected-folders.ts';
import type { ServerContext } from './server-context.ts';

export interface StartServerOptions {
  /** 0 picks a free port. Default 4317. */
  port?: number;
  /** The data directory (`WEFT_HOME`). */
  home: string;
  /** Built UI to serve, with SPA fallback to index.html. */
  staticDir?: string;
  /** Environment for provider keys; when given, `.env` is read only if `dotenvPath` is also given. */
  env?: Record<string, string | undefined>;
  dotenvPath?: string | null;
  logger?: Logger;
  /** Where to look for a local Ollama; null turns detection off. */
  ollamaUrl?: string | null;
  /** Tests only: allow snapshots of 127.0.0.1 pages. */
  allowLoopbackTargets?: boolean;
  /** C35: the Crossref API the scholarly search tool asks (default the public one; tests a scripted server). */
  crossrefUrl?: string;
  /** C35: the arXiv API and Semantic Scholar graph API the other scholarly tools ask (tests: scripted servers). */
  arxivUrl?: string;
  semanticScholarUrl?: string;
  /** C35: the Brave Search API the web search tool asks when Brave is chosen (tests: a scripted server). */
  braveSearchUrl?: string;
  /** Clock for the judge's one-minute skip. */
  now?: () => number;
  judgeTimeoutMs?: number;
  backupDelayMs?: number;
  fileSystem?: AtomicFileSystem;
  /** More `/api` routes from other features, mounted behind the same Host/Origin/token guards. */
  apiRoutes?: readonly ((context: ServerContext) => Router)[];
  /** Seals stored keys at rest (the desktop shell passes Electron's safeStorage). */
  secretsCipher?: SecretsCipher;
  /** SHA-256 port; default OpenSSL through `node:crypto` (images of up to 32 MiB are hashed per request). */
  hash?: HashPort;
}

export interface RunningServer {
  url: string;
  origin: string;
  port: number;
  token: string;
  context: ServerContext;
  close(): Promise<void>;
}

export const DEFAULT_PORT = 4317;

function readVersion(): string {
  // The desktop bundle has the version baked in; from source, package.json sits one folder up.
  if (process.env.WEFT_VERSION) return process.env.WEFT_VERSION;
  try {
    return (
      (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string }).version ??
      '0.0.0'
    );
  } catch {
    return '0.0.0';
  }
}

/** Start the local API (and UI) on 127.0.0.1 with a fresh per-launch token; writes `server.json`. */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const home = options.home;
  ensureWeftHome(home);
  await assertNoServerRunning(home);
  // Temp files of writes a crash interrupted (before their rename): never a record, only clutter.
  await removeOrphanTemps(canvasesDirectory(home));
  const dotenvPath =
    options.dotenvPath !== undefined ? options.dotenvPath : options.env ? null : join(process.cwd(), '.env');
  const environment = environmentWithDotenv(options.env ?? process.env, dotenvPath);
  const settings = new SettingsStore(home, options.fileSystem);
  const secrets = new SecretsStore(home, options.fileSystem, options.secretsCipher);
  const webSearch = new WebSearchConfigStore(home, options.fileSystem);
  // C35: MCP servers start only when their tools are listed or a question offering them is asked.
  const mcp = new McpClients({
    configPath: mcpConfigPath(home),
    onFailure: (name, error) => logger.warn('mcp server failed', { server: name, code: error.code }),
  });
  const registry = new ModelRegistry({
    settings,
    secrets,
    environment,
    ollamaUrl: options.ollamaUrl,
    now: options.now,
  });

  let secretValues: readonly string[] = [];
  const refreshSecrets = async () => {
    registry.invalidate();
    secretValues = await registry.secretValues();
  };
  await refreshSecrets();
  const logger = redactingLogger(options.logger ?? createStderrLogger(), () => secretValues);
  // Keys stored before they were bound to an origin are bound to the one their provider has now.
  const startSettings = await settings.read();
  await secrets
    .bindUnbound((id) => currentKeyOrigin(startSettings, id))
    .catch((error: unknown) =>
      logger.warn('keys could not be bound to their origins', { code: (error as { code?: unknown }).code }),
    );

  const token = randomBytes(32).toString('base64url');
  let boundPort = 0;
  const judge = new DecisionJudge({
    now: options.now,
    timeoutMs: options.judgeTimeoutMs,
    judgeModel: async () => {
      const { judgeModelId } = await settings.read();
      return judgeModelId ? { id: judgeModelId, model: await registry.resolve(judgeModelId) } : null;
    },
    onFailure: (reason) => logger.warn('judge skipped for a minute', { reason }),
  });
  // Every put-aside and restore, whichever path writes it, is journaled in memory's hash-chained journal (issue 29.2).
  // Journaled before each line is written (a failed journal writes no line); the page is told once it is written.
  let journaled: string | null = null;
  const putAsides = new PutAsideStore(home, {
    journal: async (events) => {
      journaled = (await journalPutAsides(memoryStoreFor(context), events))?.revision ?? null;
    },
    onWritten: () => {
      if (journaled !== null) context.hub.publish({ type: 'memory-changed', revision: journaled });
    },
  });
  const context: ServerContext = {
    home,
    version: readVersion(),
    logger,
    settings,
    secrets,
    registry,
    canvases: new CanvasStore({
      directory: canvasesDirectory(home),
      fileSystem: options.fileSystem,
      putAsides,
    }),
    putAsides,
    commits: new CommitLedger(commitLedgerDirectory(home), options.now ?? Date.now),
    backup: new CanvasBackup({
      folder: async () => (await settings.read()).backupFolder,
      protectedFolders: () => protectedFolders(home),
      delayMs: options.backupDelayMs,
      fileSystem: options.fileSystem,
      onError: (error) =>
        logger.warn('backup failed', {
          code: (error as { code?: unknown }).code,
          name: error instanceof Error ? error.message : String(error),
        }),
    }),
    judge,
    hub: new EventHub(),
    hash: options.hash ?? nodeHashPort,
    urlSnapshot: { allowLoopbackTargets: options.allowLoopbackTargets ?? false },
    webSearch,
    chats: new CanvasChatStore(home, options.fileSystem),
    mcp,
    chatTools: {
      scholarly: {
        allowLoopbackTargets: options.allowLoopbackTargets ?? false,
        ...(options.crossrefUrl ? { crossrefUrl: options.crossrefUrl } : {}),
        ...(options.arxivUrl ? { arxivUrl: options.arxivUrl } : {}),
        ...(options.semanticScholarUrl ? { semanticScholarUrl: options.semanticScholarUrl } : {}),
      },
      webSearch: {
        allowLoopbackTargets: options.allowLoopbackTargets ?? false,
        ...(options.braveSearchUrl ? { braveUrl: options.braveSearchUrl } : {}),
        configured: async () => {
          const config = await webSearch.read();
          return { ...config, braveKey: await secrets.getKey(BRAVE_SEARCH_KEY_ID) };
        },
      },
    },
    now: options.now ?? Date.now,
    secretValues: () => secretValues,
    refreshSecrets,
  };
  const app = createApp(context, {
    token,
    port: () => boundPort,
    staticDir: options.staticDir,
    apiRoutes: options.apiRoutes,
  });

  const server: Server = await new Promise((resolve, reject) => {
    const listening = app.listen(options.port ?? DEFAULT_PORT, '127.0.0.1');
    listening.once('listening', () => resolve(listening));
    listening.once('error', reject);
  });
  boundPort = (server.address() as AddressInfo).port;
  // Streaming answers can be long; Node's default request timeout would cut them off.
  server.requestTimeout = 0;
  server.headersTimeout = 30_000;

  const origin = `http://127.0.0.1:${boundPort}`;
  await writeServerFile(home, { port: boundPort, token, pid: process.pid, origin });
  logger.info('server started', { port: boundPort, home });

  let closed = false;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    port: boundPort,
    token,
    context,
    async close() {
      if (closed) return;
      closed = true;
      await context.backup.flush();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await context.canvases.idle();
      // The Atlas (index database, follow watchers) is made on first use; its owner is this server.
      await closeAtlasService(context);
      await closeTeamIndexes(context);
      await context.mcp.close();
      await context.commits.close();
      await removeOwnServerFile(home, token);
    },
  };
}
