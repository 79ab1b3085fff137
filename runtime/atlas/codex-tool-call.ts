import { commandOf } from './codex-tool-input.ts';
import { addStep, type BuilderState } from './session-builder.ts';
import { asString, classifyTool, parseApplyPatch, resolveAgainst } from './tool-steps.ts';

/**
 * One Codex tool call as the turn's steps: an `apply_patch` (freeform, or sent through the shell, also after a
 * `cd`) becomes one step per operation naming the files its patch body changes; any other call is classified by
 * name and input, a shell command summarised by its command line.
 */
export function addCodexToolCall(
  builder: BuilderState,
  id: string,
  callId: string | null,
  name: string,
  input: Record<string, unknown>,
  at: number | null,
): void {
  const cwd = typeof input['workdir'] === 'string' ? input['workdir'] : builder.currentCwd;
  const command = commandOf(input);
  // apply_patch, whether freeform or sent through the shell, names its files in the patch body.
  const patch =
    name === 'apply_patch'
      ? asString(input['input']) || asString(input['raw']) || command
      : /^\s*apply_patch\b/.test(command) || command.includes('*** Begin Patch')
        ? command
        : '';
  if (patch.includes('*** ')) {
    // `cd sub && apply_patch <<'EOF'…`: the patch's paths are relative to the folder it changed to.
    const changed =
      name === 'apply_patch'
        ? null
        : /(?:^|&&|;|\s-l?c\s)\s*cd\s+("[^"]+"|'[^']+'|[^\s;&]+)\s*&&\s*apply_patch\b/.exec(patch);
    const patchCwd = changed === null ? cwd : resolveAgainst(cwd, changed[1]!.replace(/^["']|["']$/g, ''));
    const groups = parseApplyPatch(patch, patchCwd);
    for (const group of groups) {
      addStep(
        builder,
        id,
        {
          callId,
          name,
          inputSummary: `apply_patch ${group.files.join(' ')}`,
          op: group.op,
          files: group.files,
          referenceText: '',
        },
        at,
      );
    }
    if (groups.length > 0) return;
  }
  const step = classifyTool(callId, name, input, cwd);
  if (command !== '') step.inputSummary = `command: ${command.replace(/\s+/g, ' ')}`;
  addStep(builder, id, step, at);
}
