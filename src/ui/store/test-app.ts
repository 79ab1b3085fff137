import 'fake-indexeddb/auto';
import { createApiClient, streamGenerate, streamGenerateSet } from '../api/index.ts';
import { WeftDatabase } from '../db/index.ts';
import { createMemoryClient, type MemoryClient } from './memory-client.ts';
import { createRecallClient, type RecallClient } from './recall-client.ts';
import { createIdGenerator } from './app-dependencies.ts';
import type { PageLocks } from './page-locks.ts';
import { createWeftStore, type WeftStore } from './weft-store.ts';

/**
 * A driver that reads like a user (docs/architecture.md style 12): a real store on real Dexie
 * (fake-indexeddb) talking to a real server over HTTP. Tests only.
 */
let instances = 0;

export class TestApp {
  readonly store: WeftStore;
  readonly database: WeftDatabase;
  /** Present with `tuning.memory`: the profile's [Memory] block and the judge after an ask. */
  readonly memory: MemoryClient | null;
  /** Present with `tuning.recall` (C16); a full reach is confirmed by `tuning.confirmFull` (default: declined). */
  readonly recall: RecallClient | null;
  private clock: number;

  /** `durableDelayMs`: a long one keeps edits unsaved until `flush()`, for tests about unsaved edits. */
  constructor(
    server: { origin: string; token: string },
    databaseName: string,
    tuning: {
      durableDelayMs?: number;
      memory?: boolean;
      plaques?: boolean;
      recall?: boolean;
      confirmFull?: boolean | ((message: string) => boolean);
      /** Which pages count as open (the app uses Web Locks); absent, every other page counts as gone. */
      pageLocks?: PageLocks;
    } = {},
  ) {
    instances += 1;
    // Each instance gets its own clock range; ids take their random tail from crypto.randomUUID.
    this.clock = 1_760_000_000_000 + instances * 100_000_000;
    const now = () => (this.clock += 1000);
    this.database = new WeftDatabase(databaseName);
    const options = { baseUrl: server.origin, token: server.token };
    this.memory = tuning.memory ? createMemoryClient(options) : null;
    const confirmFull = tuning.confirmFull;
    this.recall = tuning.recall
      ? createRecallClient(options, (message) =>
          typeof confirmFull === 'function' ? confirmFull(message) : (confirmFull ?? false),
        )
      : null;
    this.store = createWeftStore({
      ...(this.recall ? { recall: this.recall } : {}),
      ...(this.memory ? { memory: this.memory } : {}),
      api: createApiClient(options),
      database: this.database,
      generate: (body, signal) => streamGenerate(body, signal, options),
      generateSet: (body, signal) => streamGenerateSet(body, signal, options),
      now,
      newId: createIdGenerator(now),
      ...(tuning.plaques ? { plaques: true } : {}),
      ...(tuning.pageLocks ? { pageLocks: tuning.pageLocks } : {}),
      localDelayMs: 5,
      durableDelayMs: tuning.durableDelayMs ?? 10,
    });
  }

  get state() {
    return this.store.getState();
  }

  get graph() {
    const graph = this.state.graph;
    if (!graph) throw new Error('no canvas open');
    return graph;
  }

  async start(): Promise<this> {
    await this.state.loadSettings();
    await this.state.loadModels();
    await this.state.initialise();
    return this;
  }

  /** Adds a question and returns its id. */
  addQuestion(question: string): string {
    const before = new Set(this.graph.nodes.keys());
    if (!this.state.apply({ type: 'add-node', node: { kind: 'question', question } }))
      throw new Error(`add refused: ${this.lastToast()?.code} ${this.lastToast()?.message}`);
    return [...this.graph.nodes.keys()].find((id) => !before.has(id))!;
  }

  edit(nodeId: string, question: string): boolean {
    return this.state.apply({ type: 'edit-node', nodeId, patch: { question } });
  }

  wire(from: string, to: string): boolean {
    return this.state.apply({ type: 'wire', from, to, kind: 'solid' });
  }

  lastToast() {
    return this.state.toasts[this.state.toasts.length - 1];
  }

  async close(): Promise<void> {
    await this.state.flush();
    this.database.close();
  }
}
