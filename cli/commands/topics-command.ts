import { randomUUID } from 'node:crypto';
import type { LabelledTurn, LabelPlan, TopicRecord } from '../../protocol/index.ts';
import type { EventDraft, Result } from '../../src/core/index.ts';
import {
  createTopic,
  deleteTopic,
  findTopic,
  mergeTopic,
  planLabelling,
  removeLabel,
  renameTopic,
  type LabelRemovalCode,
  type TopicEditCode,
} from '../../src/core/topics/index.ts';
import { CliError } from '../cli-error.ts';
import type { ParsedCommand } from '../command-table.ts';
import { printJson } from '../format.ts';
import { openFreshIndex, openIndexReader, teamDatabaseUrl } from '../open-why-index.ts';
import type { Terminal } from '../terminal.ts';

const ACTIONS = ['list', 'create', 'rename', 'merge', 'delete', 'label', 'labels', 'unlabel'] as const;
const ARITY: Record<(typeof ACTIONS)[number], number> = {
  list: 0,
  create: 1,
  rename: 2,
  merge: 2,
  delete: 1,
  label: 0,
  labels: 1,
  unlabel: 2,
};

/**
 * `weft topics [list|create|rename|merge|delete|label]` (C15): the person's topic table in `$WEFT_HOME/memory`, and
 * the labelling run. `label` prints the plan (turns, requests, price, every opening that would leave) and runs only
 * with `--yes`; Ctrl-C stops it between turns, keeping the labels found so far. `labels` lists a topic's labelled
 * turns; `unlabel` removes one (kept as the person's decision: no later run gives it back while the turn is unchanged).
 */
export async function run(command: ParsedCommand, io: Terminal): Promise<number> {
  const [action = 'list', ...rest] = command.positionals;
  if (!(ACTIONS as readonly string[]).includes(action))
    throw new CliError('usage', `unknown topics action "${action}" (${ACTIONS.join(', ')})`);
  const verb = action as (typeof ACTIONS)[number];
  if (rest.length !== ARITY[verb])
    throw new CliError('usage', `weft topics ${verb} takes ${ARITY[verb]} argument${ARITY[verb] === 1 ? '' : 's'}`);
  const { resolveWeftHome } = await import('../../runtime/fs/index.ts');
  const { memoryDirectory } = await import('../../runtime/memory/index.ts');
  const { TopicStore } = await import('../../runtime/topics/index.ts');
  const { nodeHashPort } = await import('../../runtime/hash/index.ts');
  const home = resolveWeftHome(io.env);
  const store = new TopicStore({
    directory: memoryDirectory(home),
    now: Date.now,
    newId: randomUUID,
    hash: nodeHashPort,
  });

  if (verb === 'list') {
    printRecord(io, await listedRecord(io, store), command.flags.json === true);
    return 0;
  }
  if (verb === 'label') return label(command, io, home, store);
  if (verb === 'labels') return listLabels(command, io, home, store, rest[0]!);

  const { stored, result: event } = await store.update(null, ({ record }) => {
    const edited = edit(verb, record, rest);
    if (!edited.ok) throw new CliError(`topic-${edited.error}`, `cannot ${verb} topic: ${edited.error}`);
    return { record: edited.value.record, events: [edited.value.event], result: edited.value.event };
  });
  // A merged or deleted topic's pending project facts follow it: to the kept topic, or to the general inbox.
  if (event.op === 'topic-merged' || event.op === 'topic-deleted') {
    const { openDossierStore } = await import('../../runtime/dossiers/index.ts');
    const dossiers = openDossierStore(home, { hash: nodeHashPort });
    try {
      if (event.op === 'topic-merged') dossiers.moveFacts(String(event.meta.from), event.objectId);
      else dossiers.moveFacts(event.objectId, null);
    } finally {
      dossiers.close();
    }
  }
  printRecord(io, stored.record, command.flags.json === true);
  return 0;
}

function edit(
  verb: 'create' | 'rename' | 'merge' | 'delete' | 'unlabel',
  record: TopicRecord,
  args: string[],
): Result<{ record: TopicRecord; event: EventDraft }, TopicEditCode | LabelRemovalCode> {
  if (verb === 'create') return createTopic(record, args[0]!, { now: Date.now(), newId: randomUUID });
  const topic = findTopic(record, args[0]!);
  if (!topic) return { ok: false, error: 'unknown-topic' };
  if (verb === 'unlabel') return removeLabel(record, topic.id, args[1]!, Date.now());
  if (verb === 'rename') return renameTopic(record, topic.id, args[1]!);
  if (verb === 'delete') return deleteTopic(record, topic.id);
  const into = findTopic(record, args[1]!);
  return into ? mergeTopic(record, topic.id, into.id) : { ok: false, error: 'unknown-topic' };
}

/** The topics to list: with `WEFT_DATABASE_URL`, those every machine pushed to the team index (as this person may read). */
async function listedRecord(io: Terminal, store: import('../../runtime/topics/index.ts').TopicStore) {
  if (!teamDatabaseUrl(io)) return (await store.read()).record;
  const { reader, close } = await openIndexReader(io);
  try {
    return await reader.teamMemory!.topics();
  } finally {
    await close();
  }
}

function printRecord(io: Terminal, record: TopicRecord, json: boolean): void {
  const counts = new Map<string, number>();
  for (const label of record.labels) for (const id of label.topicIds) counts.set(id, (counts.get(id) ?? 0) + 1);
  const topics = record.topics.map((topic) => ({ ...topic, turns: counts.get(topic.id) ?? 0 }));
  if (json) return printJson(io.out, topics);
  if (topics.length === 0) return io.out('no topics yet: weft topics create "<name>"\n');
  for (const topic of topics)
    io.out(`${topic.name}  (${topic.turns} turn${topic.turns === 1 ? '' : 's'})  ${topic.id}\n`);
}

async function listLabels(
  command: ParsedCommand,
  io: Terminal,
  home: string,
  store: import('../../runtime/topics/index.ts').TopicStore,
  name: string,
): Promise<number> {
  const { CanvasStore, canvasesDirectory, readPutAsides } = await import('../../runtime/fs/index.ts');
  const { labelledTurns } = await import('../../runtime/topics/index.ts');
  // With `WEFT_DATABASE_URL`: the topics and session turns every machine pushed; canvas turns stay this machine's.
  const team = teamDatabaseUrl(io) ? await openIndexReader(io) : null;
  let turns: LabelledTurn[];
  let topic: TopicRecord['topics'][number];
  try {
    const record = team ? await team.reader.teamMemory!.topics() : (await store.read()).record;
    const found = findTopic(record, name);
    if (!found) throw new CliError('topic-unknown-topic', `no topic "${name}": weft topics lists them`);
    topic = found;
    const index = await openFreshIndex(io);
    try {
      const canvases = new CanvasStore({ directory: canvasesDirectory(home) });
      turns = await labelledTurns(record, topic.id, {
        database: index.database,
        canvases,
        putAsides: readPutAsides(home),
        ...(team ? { sessionTurns: (keys: string[]) => team.reader.teamMemory!.sessionTurns(keys) } : {}),
      });
    } finally {
      index.close();
    }
  } finally {
    await team?.close();
  }
  if (command.flags.json) printJson(io.out, { topic, turns });
  else if (turns.length === 0) io.out(`no turns are labelled ${topic.name}\n`);
  else
    for (const turn of turns)
      io.out(
        `${turn.turnKey}  ${turn.runner}  ${turn.title ?? '(gone)'}  ${turn.at === null ? '' : new Date(turn.at).toISOString().slice(0, 10)}  by ${turn.by}\n` +
          (turn.found ? `    ${turn.opening}\n` : '    (archived or no longer found)\n'),
      );
  return 0;
}

async function label(
  command: ParsedCommand,
  io: Terminal,
  home: string,
  store: import('../../runtime/topics/index.ts').TopicStore,
): Promise<number> {
  const { SettingsStore, SecretsStore, CanvasStore, canvasesDirectory, readPutAsides } =
    await import('../../runtime/fs/index.ts');
  const { DecisionJudge, ModelRegistry } = await import('../../runtime/models/index.ts');
  const { canvasTurns, judgeRequestTokens, runLabelling, sessionTurns } = await import('../../runtime/topics/index.ts');
  const { nodeHashPort } = await import('../../runtime/hash/index.ts');
  const settings = new SettingsStore(home);
  const registry = new ModelRegistry({
    settings,
    secrets: new SecretsStore(home),
    environment: io.env,
    ollamaUrl: null,
  });
  const { judgeModelId = null } = await settings.read();

  const index = await openFreshIndex(io);
  let turns;
  try {
    turns = sessionTurns(index.database, undefined, readPutAsides(home));
  } finally {
    index.close();
  }
  turns.push(...(await canvasTurns(new CanvasStore({ directory: canvasesDirectory(home) }), readPutAsides(home))));
  const { record } = await store.read();
  if (record.topics.length === 0)
    throw new CliError('topics-none', 'create a topic first: weft topics create "<name>"');
  const price = judgeModelId
    ? ((await registry.listModels()).models.find((model) => model.id === judgeModelId)?.pricePerMTokIn ?? null)
    : null;
  const { plan, work } = planLabelling(turns, record, {
    hash: nodeHashPort,
    judgeModelId,
    pricePerMTokIn: price,
    requestTokens: judgeRequestTokens,
  });
  if (!command.flags.yes) {
    if (command.flags.json) printJson(io.out, { plan });
    else printPlan(io, plan);
    return 0;
  }
  const judge = new DecisionJudge({
    judgeModel: async () => (judgeModelId ? { id: judgeModelId, model: await registry.resolve(judgeModelId) } : null),
  });
  const controller = new AbortController();
  const onInterrupt = () => controller.abort();
  process.once('SIGINT', onInterrupt);
  try {
    const job = await runLabelling({
      store,
      work,
      topics: record.topics,
      reused: plan.reused,
      judged: plan.judgeModelId !== null,
      decider: judge,
      now: Date.now,
      signal: controller.signal,
      onProgress: (progress) => {
        if (!command.flags.json) io.err(`\rlabelled ${progress.done}/${progress.total}`);
      },
    });
    if (!command.flags.json) io.err('\n');
    if (command.flags.json) printJson(io.out, { plan, job });
    else
      io.out(
        `${job.state}: ${job.done} of ${job.total} labelled (${job.byJudge} by the judge, ${job.byName} by name), ${job.reused} reused\n`,
      );
    return job.state === 'failed' ? 1 : 0;
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}

function printPlan(io: Terminal, plan: LabelPlan): void {
  io.out(
    `${plan.turns} turns: ${plan.reused} labelled already (unchanged), ${plan.toLabel} to label\n` +
      (plan.judgeModelId
        ? `${plan.requests} requests to ${plan.judgeModelId}, about ${plan.inputTokens} input tokens` +
          `${plan.price === null ? ' (price unknown)' : `, about $${plan.price.toFixed(4)}`}\n` +
          `what leaves this machine: each turn's first ${plan.openingChars} characters:\n` +
          plan.outgoing.map((item) => `--- ${item.turnKey}\n${item.opening}\n`).join('')
        : 'no decision model is set: topics match by name on this machine, nothing is sent\n') +
      'run it with: weft topics label --yes\n',
  );
}
