import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { OFFLINE_RECEIPT_MODEL_ID } from '../../protocol/index.ts';
import { CliError } from '../cli-error.ts';
import type { ParsedCommand } from '../command-table.ts';
import { printJson } from '../format.ts';
import type { Terminal } from '../terminal.ts';

/** Larger than any canvas the app writes; a bigger file is refused before it is parsed. */
const MAX_CANVAS_BYTES = 256 * 1024 * 1024;

/**
 * `weft compile <file.weft.json> --node <id>`: the node's request exactly as the app's will-send preview builds
 * it (core's `compile` with the shown stale set, then `buildRequest` for the node's model), its per-part sources
 * and its SHA-256 — the hash the app records on the `commit` event. `--bundle` also writes the Context Bundle.
 */
export async function run(command: ParsedCommand, io: Terminal): Promise<number> {
  const [core, fs, models, { nodeHashPort }] = await Promise.all([
    import('../../src/core/index.ts'),
    import('../../runtime/fs/index.ts'),
    import('../../runtime/models/index.ts'),
    import('../../runtime/hash/index.ts'),
  ]);
  const { memoryBlockFor } = await import('./compile-memory-block.ts');
  const { recallBlockFor } = await import('./compile-recall-block.ts');
  const file = resolve(io.cwd, command.positionals[0]!);
  const nodeId = command.flags.node;
  if (typeof nodeId !== 'string') throw new CliError('bad-usage', 'give the node to compile: --node <id>', 2);
  const unreadable = (error: NodeJS.ErrnoException) => {
    throw new CliError(error.code === 'ENOENT' ? 'not-found' : 'unreadable', `cannot read ${file}: ${error.message}`);
  };
  // The size is checked before a byte is read: a huge file is refused without filling memory.
  const { size } = await stat(file).catch(unreadable);
  if (size > MAX_CANVAS_BYTES) throw new CliError('too-large', `${file} is larger than 256 MB`);
  const text = await readFile(file, 'utf8').catch(unreadable);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new CliError('corrupt', `${file} is not JSON`);
  }
  const loaded = core.loadCanvas(raw);
  if (!loaded.ok) throw new CliError(loaded.error.code, `${file}: ${loaded.error.message}`);
  const graph = loaded.value.graph;
  const node = graph.nodes.get(nodeId);
  if (!node) throw new CliError('not-found', `there is no node ${nodeId} on canvas "${graph.canvas.name}"`);
  if (node.kind !== 'question')
    throw new CliError('not-a-question', `node ${nodeId} is a ${node.kind}; only a question is sent`);

  // The model as the app picks it: the node's pin, else --model, else the configured default; images as it lists.
  const home = fs.resolveWeftHome(io.env);
  const registry = new models.ModelRegistry({
    settings: new fs.SettingsStore(home),
    secrets: new fs.SecretsStore(home),
    environment: fs.environmentWithDotenv(io.env, resolve(io.cwd, '.env')),
  });
  const listed = await registry.listModels();
  const flagModel = typeof command.flags.model === 'string' ? command.flags.model : null;
  const modelId = node.model ?? flagModel ?? listed.defaultModelId ?? OFFLINE_RECEIPT_MODEL_ID;
  const model = listed.models.find((each) => each.id === modelId);
  const takesImages = model?.takesImages ?? false;

  const shown = core.shownStale(graph, new core.StaleTracker(graph, nodeHashPort));
  const compiled = core.compile(graph, nodeId, { stale: shown });
  // The [Memory] block an ask of this node carries in the app, unless --no-memory leaves it out.
  const memory = command.flags['no-memory']
    ? { block: null, reason: 'left out (--no-memory)' }
    : await memoryBlockFor(home, graph.canvas.id, node.memoryReading);
  // C16: the recall block the app's preview shows for this node (recall switched on), unless --no-recall.
  const recall = command.flags['no-recall']
    ? { block: null, plan: null, reason: 'left out (--no-recall)' }
    : await recallBlockFor(io, home, graph, node, model ?? { id: modelId }, {
        settings: new fs.SettingsStore(home),
        registry,
        confirmFull: command.flags['confirm-full'] === true,
      });
  // The tools the app offers with this node (C35): their declarations are part of the request and its hash.
  const offered = core.offeredTools(graph.canvas, node);
  const tools = { chatTools: offered.chatTools, mcpTools: offered.mcpTools };
  const built = core.buildRequest(compiled, {
    model: modelId,
    images: takesImages,
    hash: nodeHashPort,
    memoryBlock: memory.block,
    recallBlock: recall.block,
    ...tools,
  });
  let bundlePath: string | null = null;
  if (command.flags.bundle) {
    // The bundle of the request printed above (its [Memory] and recall blocks and tools): the same hash.
    const bundle = core.buildContextBundle(graph, compiled, built, Date.now());
    bundlePath = resolve(
      io.cwd,
      typeof command.flags.out === 'string' ? command.flags.out : `${nodeId}.context-bundle.json`,
    );
    await fs.writeFileAtomic(bundlePath, `${JSON.stringify(bundle, null, 2)}\n`);
  }
  const stale = [...shown].filter((id) => compiled.sources.some((source) => source.nodeId === id)).sort();
  if (command.flags.json) {
    printJson(io.out, {
      canvasId: graph.canvas.id,
      nodeId,
      model: modelId,
      requestHash: built.requestHash,
      request: built.request,
      sources: compiled.sources,
      tokens: compiled.tokens,
      stale,
      memory: { sent: memory.block !== null, reason: memory.reason },
      recall: {
        sent: recall.block !== null,
        reason: recall.reason,
        blockHash: recall.plan?.blockHash ?? null,
        items: recall.plan?.items ?? [],
        omitted: recall.plan?.omitted ?? [],
      },
      bundle: bundlePath,
    });
    return 0;
  }
  const lines = [
    `request ${built.requestHash}`,
    `model   ${modelId}${stale.length ? `   stale: ${stale.join(', ')}` : ''}`,
    `memory  ${memory.block !== null ? 'sent' : 'not sent'}: ${memory.reason}`,
    `recall  ${recall.block !== null ? 'sent' : 'not sent'}: ${recall.reason}`,
  ];
  // Compiled messages line up with the compiled sources; a late block (the profile) is its own labelled part.
  built.request.messages.forEach((message, index) => {
    const origin = built.messageSources[index]!;
    const source = origin.kind === 'compiled' ? compiled.sources[origin.index] : null;
    const from = source
      ? `  (${source.layer}: ${source.partId})`
      : origin.kind === 'late'
        ? `  (${origin.source})`
        : '';
    lines.push(`--- ${message.role}${from}`);
    for (const part of message.content)
      lines.push(part.type === 'text' ? part.text : `<image ${part.hash} ${part.mediaType}>`);
  });
  lines.push(`--- ${compiled.tokens.total} tokens (estimate)`);
  if (bundlePath) lines.push(`bundle written to ${bundlePath}`);
  io.out(`${lines.join('\n')}\n`);
  return 0;
}
