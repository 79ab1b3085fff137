import { askedQuestion } from './asked-question.ts';
import type { CanvasNode, MaterialNode, MirrorNode, QuestionNode } from '../../protocol/index.ts';
import { agentFootprintText } from './agent-footprint-text.ts';
import type { PartKind } from './compiled-context.ts';
import type { HashPort } from './hash-port.ts';
import { answerForContext } from './highlight-text.ts';
import { isoTime } from './iso-time.ts';
import { wellFormed } from './well-formed.ts';

/**
 * The text each node contributes, rendered once per node object. Graphs are immutable and
 * share unchanged node objects, so a WeakMap keyed on the object is a safe cache: an edit
 * makes a new object and the old entry is collected. Compile reads several entries per node
 * on every call, so part ids are kept too (no key string built per read). One small record per
 * node, not three Maps: every node of an open canvas has an entry once its staleness is known,
 * and three Maps weighed ~460 bytes a node (~4.6 MB of a 10,000-node canvas's heap).
 */
interface NodeTextCache {
  texts: Partial<Record<TextKey, string | null>>;
  partIds: Partial<Record<PartKind, string>>;
  digests: Partial<Record<TextKey, string>>;
}

const cache = new WeakMap<CanvasNode, NodeTextCache>();

function entry(node: CanvasNode): NodeTextCache {
  let found = cache.get(node);
  if (!found) {
    found = { texts: {}, partIds: {}, digests: {} };
    cache.set(node, found);
  }
  return found;
}

/** `<nodeId>:<part>`, made once per node object (compile emits one or two per message). */
export function partIdOf(node: CanvasNode, part: PartKind): string {
  const partIds = entry(node).partIds;
  let id = partIds[part];
  if (id === undefined) {
    id = `${node.id}:${part}`;
    partIds[part] = id;
  }
  return id;
}

/** SHA-256 of one of a node's texts, cached with it (every port gives the same digest, so one cache serves all). */
export function digestOf(node: CanvasNode, key: TextKey, hash: HashPort): string {
  const digests = entry(node).digests;
  let digest = digests[key];
  if (digest === undefined) {
    digest = hash.sha256Hex(nodeText(node, key) ?? '');
    digests[key] = digest;
  }
  return digest;
}

export type TextKey = 'question' | 'answer' | 'execution' | 'material' | 'note';

/** One of a node's texts as it enters context (null when the node has none), rendered on its first read. */
export function nodeText(node: CanvasNode, key: TextKey): string | null {
  const texts = entry(node).texts;
  const known = texts[key];
  if (known !== undefined) return known;
  const rendered = render(node, key);
  const text = rendered === null ? null : wellFormed(rendered);
  texts[key] = text;
  return text;
}

function render(node: CanvasNode, key: TextKey): string | null {
  switch (key) {
    case 'question':
      if (node.kind === 'question') return askedQuestion(node, node.question);
      return node.kind === 'mirror' ? node.question : null;
    case 'answer':
      return answerOf(node);
    case 'execution':
      if (node.kind === 'question') return agentFootprintLine(node);
      return node.kind === 'mirror' ? executionText(node) : null;
    case 'material':
      return node.kind === 'material' ? materialText(node) : null;
    case 'note':
      return node.kind === 'note' ? `[Note]\n${node.text}` : null;
  }
}

/** The current answer: a question's selected complete version, or a mirror's editable copy. */
function answerOf(node: CanvasNode): string | null {
  if (node.kind === 'mirror') return node.answer;
  if (node.kind !== 'question') return null;
  const version = currentAnswer(node);
  return version ? answerForContext(node, version) : null;
}

export function currentAnswer(node: QuestionNode): QuestionNode['versions'][number] | null {
  if (node.currentVersionId === null) return null;
  const version = node.versions.find((item) => item.id === node.currentVersionId);
  // A failed or aborted attempt is kept as a version but never enters context.
  return version && version.status === 'complete' ? version : null;
}

function materialText(node: MaterialNode): string {
  return `[Material: ${node.title}]\nSource: ${provenanceLine(node)}\n\n${node.text}`;
}

function provenanceLine(node: MaterialNode): string {
  const provenance = node.provenance;
  switch (provenance.type) {
    case 'pasted':
      return 'pasted text';
    case 'url': {
      const fetched = isoTime(provenance.fetchedAt) ?? `at ${provenance.fetchedAt} ms`;
      const requested = provenance.url !== provenance.finalUrl ? `, requested as ${provenance.url}` : '';
      return `${provenance.finalUrl} (snapshot fetched ${fetched}${requested})`;
    }
    case 'pdf': {
      const pages =
        provenance.pages.length === 1 ? `page ${provenance.pages[0]}` : `pages ${provenance.pages.join(', ')}`;
      return `${provenance.fileName}, ${pages}`;
    }
    case 'image':
      return `image ${provenance.fileName}`;
    case 'file':
      return `${provenance.fileName} (${provenance.format}, imported ${isoTime(provenance.importedAt) ?? `at ${provenance.importedAt} ms`})`;
  }
}

/**
 * C20: a mirrored turn's tool steps. Excluded by default: one line naming the files touched,
 * saying their contents were left out. Included: the whole execution record as text.
 */
function executionText(node: MirrorNode): string | null {
  const steps = node.source.steps;
  if (steps.length === 0) return null;
  const plural = steps.length === 1 ? 'step' : 'steps';
  if (!node.includeExecution) {
    const files = [...new Set(steps.flatMap((step) => step.files))];
    if (files.length === 0)
      return `[Execution: ${steps.length} tool ${plural}; their output was left out of this context]`;
    return `[Execution: ${steps.length} tool ${plural} touched ${files.join(', ')}; their contents were left out of this context]`;
  }
  const lines = [`[Execution record: ${steps.length} tool ${plural}]`];
  steps.forEach((step, index) => {
    lines.push(`${index + 1}. ${step.name} (${step.op})${step.isError ? ' [error]' : ''}`);
    if (step.inputSummary) lines.push(`   input: ${step.inputSummary}`);
    if (step.files.length > 0) lines.push(`   files: ${step.files.join(', ')}`);
    if (step.resultSummary) lines.push(`   result: ${step.resultSummary}`);
  });
  return lines.join('\n');
}

/** C24: an agent answer's footprints downstream, as the node's switch says (see agent-footprint-text.ts). */
function agentFootprintLine(node: QuestionNode): string | null {
  const agent = currentAnswer(node)?.agent;
  return agent ? agentFootprintText(agent, node.includeFootprints === true) : null;
}

/** A material that carries an image (its bytes are an attachment). */
export function materialImage(node: CanvasNode): string | null {
  return node.kind === 'material' && node.provenance.type === 'image' ? node.provenance.attachmentHash : null;
}
