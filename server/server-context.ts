import type { CanvasBackup } from '../runtime/fs/canvas-backup.ts';
import type { CanvasStore } from '../runtime/fs/canvas-store.ts';
import type { SecretsStore } from '../runtime/fs/secrets-store.ts';
import type { SettingsStore } from '../runtime/fs/settings-store.ts';
import type { DecisionJudge } from '../runtime/models/decision-judge.ts';
import type { ModelRegistry } from '../runtime/models/model-registry.ts';
import type { UrlSnapshotOptions } from '../runtime/materials/url-snapshot.ts';
import type { HashPort } from '../src/core/hash-port.ts';
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
  backup: CanvasBackup;
  judge: DecisionJudge;
  hub: EventHub;
  /** SHA-256 for request hashes and image checks (OpenSSL's `nodeHashPort` unless a test injects another). */
  hash: HashPort;
  urlSnapshot: Pick<UrlSnapshotOptions, 'allowLoopbackTargets' | 'maxBytes' | 'timeoutMs'>;
  /** Current key values (refreshed on settings change) for scrubbing messages. */
  secretValues: () => readonly string[];
  refreshSecrets: () => Promise<void>;
}
