import type {
  CanvasBackup,
  CanvasStore,
  CommitLedger,
  PutAsideStore,
  SecretsStore,
  SettingsStore,
} from '../runtime/fs/index.ts';
import type { DecisionJudge, ModelRegistry } from '../runtime/models/index.ts';
import type { UrlSnapshotOptions } from '../runtime/materials/index.ts';
import type { ChatToolOptions, McpClients, WebSearchConfigStore } from '../runtime/tools/index.ts';
import type { HashPort } from '../src/core/index.ts';
import type { CanvasChatStore } from '../runtime/ask-canvas/index.ts';
import type { EventHub } from './event-hub.ts';
import type { Logger } from './logger.ts';

/** Everything a route needs, built once per server. */
export interface ServerContext {
  home: string;
  version: string;
  logger: Logger;
  settings: SettingsStore;
  secrets: SecretsStore;
  registry: ModelRegistry;
  canvases: CanvasStore;
  /** Issue 29.2: the one tombstone store (the canvas store records into it too); each write is journaled. */
  putAsides: PutAsideStore;
  /** Issue 27.3: every model-lane request the server committed for a question node, and the answer it streamed. */
  commits: CommitLedger;
  backup: CanvasBackup;
  judge: DecisionJudge;
  hub: EventHub;
  /** SHA-256 for request hashes and image checks (OpenSSL's `nodeHashPort` unless a test injects another). */
  hash: HashPort;
  urlSnapshot: Pick<UrlSnapshotOptions, 'allowLoopbackTargets' | 'maxBytes' | 'timeoutMs'>;
  /** C35: where the chat model's tools reach out to, under the same address policy as URL snapshots. */
  chatTools: ChatToolOptions;
  /** C35: which web search service the person chose (the Brave key lives in `secrets`). */
  webSearch: WebSearchConfigStore;
  /** C17: each canvas's side chat (removed with its canvas). */
  chats: CanvasChatStore;
  /** C35: the MCP servers of `$WEFT_HOME/mcp.json`, started on first use and stopped with the server. */
  mcp: McpClients;
  /** The server's clock (tests inject one): limits per period are counted on it, never on a client's word. */
  now: () => number;
  /** Current key values (refreshed on settings change) for scrubbing messages. */
  secretValues: () => readonly string[];
  refreshSecrets: () => Promise<void>;
}
