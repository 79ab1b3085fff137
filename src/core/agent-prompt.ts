import type { RequestMessage } from '../../protocol/index.ts';
import type { AgentMaterialFile } from './agent-materials.ts';
import type { CompiledContext } from './compiled-context.ts';
import type { EventDraft } from './event-log.ts';
import type { HashPort } from './hash-port.ts';
import { sha256Hex } from './hashing.ts';
import { imagePlaceholder } from './build-request.ts';

export type AgentRuntimeName = 'pi' | 'codex';

/** What an agent runtime is handed: the compiled context as one block ahead of the question, as one text. */
export interface AgentPrompt {
  /** The context block (null on a continued session, which gets the question only). */
  block: string | null;
  question: string;
  /** Exactly the text the runtime receives: the bytes the commit hashes and the preview shows. */
  text: string;
}

const BLOCK_OPEN = '<weft-context>';
const BLOCK_CLOSE = '</weft-context>';

function partsText(message: RequestMessage): string {
  return message.content
    .map((part) => (part.type === 'text' ? part.text : imagePlaceholder(part.hash, part.mediaType)))
    .join('\n\n');
}

/** Where a turn's materials are copied and as which files (`agent-materials.ts`). */
export interface AgentMaterialsCopy {
  folder: string;
  files: readonly AgentMaterialFile[];
}

function materialsSection(copy: AgentMaterialsCopy): string {
  const separator = copy.folder.includes('\\') && !copy.folder.includes('/') ? '\\' : '/';
  const lines = copy.files.map((file) => `- ${copy.folder}${separator}${file.fileName} (${file.title})`);
  return ['## materials as files', '', 'The materials above are also copied as files you can read:', ...lines].join(
    '\n',
  );
}

/**
 * C24: the compiled messages flattened into one block ahead of the question. Each message keeps its role as a
 * heading so the runtime can tell a question from an answer; the question (compile puts it last) follows the block.
 */
export function buildAgentPrompt(
  compiled: CompiledContext,
  options: { continued: boolean; materials?: AgentMaterialsCopy },
): AgentPrompt {
  const messages = compiled.messages;
  const question = messages.length > 0 ? partsText(messages[messages.length - 1]!) : '';
  const context = messages.slice(0, -1);
  if (options.continued || context.length === 0) return { block: null, question, text: question };
  const sections = context.map((message) => `## ${message.role}\n\n${partsText(message)}`);
  const copied = options.materials && options.materials.files.length > 0 ? options.materials : null;
  const block = [
    BLOCK_OPEN,
    'The context below was compiled by Weft from the canvas; it is background for the question after it.',
    '',
    sections.join('\n\n'),
    ...(copied ? ['', materialsSection(copied)] : []),
    BLOCK_CLOSE,
  ].join('\n');
  return { block, question, text: `${block}\n\n${question}` };
}

/**
 * The commit of an agent turn: the hash is over the UTF-8 bytes the runtime received (the prompt text), not over
 * the compiled messages, so what the log says was sent is what the runtime read.
 */
export function agentCommit(
  nodeId: string,
  prompt: AgentPrompt,
  options: { runtime: AgentRuntimeName; model: string; hash?: HashPort },
): { receivedHash: string; commit: EventDraft } {
  const receivedHash = sha256Hex(prompt.text, options.hash);
  return {
    receivedHash,
    commit: {
      op: 'commit',
      objectId: nodeId,
      meta: {
        requestHash: receivedHash,
        messageCount: prompt.block === null ? 1 : 2,
        model: options.model,
        lane: `agent:${options.runtime}`,
      },
    },
  };
}
