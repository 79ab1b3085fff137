import type { CompiledContext } from './compiled-context.ts';
import type { Graph } from './graph.ts';
import { sha256Hex } from './hashing.ts';

/** One material of an agent turn, copied as a file the runtime may read: its compiled text, provenance included. */
export interface AgentMaterialFile {
  fileName: string;
  title: string;
  text: string;
}

/** File names the server accepts: what `slug` makes, so nothing can climb out of the folder. */
export const AGENT_MATERIAL_FILE_NAME = /^[0-9]{1,3}-[a-z0-9-]{1,60}\.md$/;

function slug(title: string): string {
  const cut = title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/g, '');
  return cut || 'material';
}

/**
 * The materials in a node's compiled context (what the person left out is not there), as files named
 * `<n>-<title>.md`, each holding the same text the block carries: the title, the source line, the content.
 */
export function agentMaterialFiles(graph: Graph, compiled: CompiledContext): AgentMaterialFile[] {
  // Parts are read by their part ids, so a message that carries several parts still gives one file per material.
  const texts = new Map<string, string[]>();
  compiled.messages.forEach((message, index) => {
    const partIds = compiled.sources[index]!.contentPartIds;
    message.content.forEach((part, at) => {
      const nodeId = partIds[at]?.endsWith(':material') ? partIds[at].slice(0, -':material'.length) : null;
      if (!nodeId || part.type !== 'text' || graph.nodes.get(nodeId)?.kind !== 'material') return;
      texts.set(nodeId, [...(texts.get(nodeId) ?? []), part.text]);
    });
  });
  const files: AgentMaterialFile[] = [];
  for (const [nodeId, parts] of texts) {
    const node = graph.nodes.get(nodeId);
    const title = node?.kind === 'material' ? node.title : nodeId;
    files.push({ fileName: `${files.length + 1}-${slug(title)}.md`, title, text: parts.join('\n\n') });
  }
  return files;
}

/** The folder a node's materials are copied to, inside the working directory: `<cwd>/.weft/materials/<node>`. */
export function agentMaterialsFolder(cwd: string, nodeId: string): string {
  const separator = cwd.includes('\\') && !cwd.includes('/') ? '\\' : '/';
  const name = /^[A-Za-z0-9_-]{1,100}$/.test(nodeId) ? nodeId : `node-${sha256Hex(nodeId).slice(0, 16)}`;
  const base = cwd.endsWith(separator) ? cwd.slice(0, -1) : cwd;
  return [base, '.weft', 'materials', name].join(separator);
}
