import { WORKSPACE_CHANGES_TOOL, type QuestionNode } from '../../protocol/index.ts';
import { canonicalJsonText } from './canonical-json.ts';

type AgentAnswer = NonNullable<QuestionNode['versions'][number]['agent']>;

/** Arguments longer than this are cut: a write's whole file content would otherwise dominate the context. */
const ARGUMENTS_LIMIT = 2000;

function argumentsText(args: unknown): string {
  let text: string;
  try {
    text = canonicalJsonText(args) ?? 'null';
  } catch {
    // Canonical JSON refuses what a runtime may still send (a lone surrogate); the plain form is kept then.
    text = JSON.stringify(args) ?? 'null';
  }
  return text.length > ARGUMENTS_LIMIT
    ? `${text.slice(0, ARGUMENTS_LIMIT)}… (cut at ${ARGUMENTS_LIMIT} characters)`
    : text;
}

/**
 * C24: what an agent answer contributes downstream beside its text. By default (`includeFootprints` off) one line
 * naming the files the turn changed and that their contents were left out; switched on, every footprint in full
 * (tool, arguments, files with op, exit code, error), so those details enter the fingerprint exactly then.
 */
export function agentFootprintText(agent: AgentAnswer, includeFootprints: boolean): string | null {
  // The files found by comparing the folder before and after the turn are not a tool call of their own.
  const toolCalls = agent.footprints.filter((footprint) => footprint.toolName !== WORKSPACE_CHANGES_TOOL);
  const found = agent.footprints.find((footprint) => footprint.toolName === WORKSPACE_CHANGES_TOOL);
  const calls = toolCalls.length;
  if (calls === 0 && !found) return null;
  const plural = calls === 1 ? 'call' : 'calls';
  if (!includeFootprints) {
    if (agent.changedFiles.length === 0)
      return `[Agent turn (${agent.runtime}): ${calls} tool ${plural}; their output was left out of this context]`;
    return `[Agent turn (${agent.runtime}): ${calls} tool ${plural} changed ${agent.changedFiles.join(', ')}; their contents were left out of this context]`;
  }
  const lines = [`[Agent turn (${agent.runtime}) footprints: ${calls} tool ${plural}]`];
  toolCalls.forEach((footprint, index) => {
    const exit = footprint.exitCode === null ? '' : ` exit ${footprint.exitCode}`;
    lines.push(`${index + 1}. ${footprint.toolName}${exit}${footprint.error === null ? '' : ' [error]'}`);
    lines.push(`   arguments: ${argumentsText(footprint.args)}`);
    if (footprint.files.length > 0)
      lines.push(`   files: ${footprint.files.map((file) => `${file.op} ${file.path}`).join(', ')}`);
    if (footprint.error !== null) lines.push(`   error: ${footprint.error}`);
  });
  if (found && found.files.length > 0)
    lines.push(
      `Found changed after the turn (shell): ${found.files.map((file) => `${file.op} ${file.path}`).join(', ')}`,
    );
  if (found?.error) lines.push(found.error);
  if (agent.changedFiles.length > 0) lines.push(`Changed: ${agent.changedFiles.join(', ')}`);
  return lines.join('\n');
}
