// Abstract tools -> each runner's own tools.
// A reply is {thinking?, text?, tools?: [{op, ...}] | [{raw:{runner:{name, input}}}], final_text?}
import path from 'node:path';

export function toolFor(runner, t, ctx) {
  const c = toolFor0(runner, t, ctx);
  if (c && t.extra && !c.custom) c.input = { ...c.input, ...t.extra };
  return c;
}
function toolFor0(runner, t, ctx) {
  if (t.raw && t.raw[runner]) return t.raw[runner];
  if (t.raw && !t.raw[runner] && !t.op) return null;
  const abs = (p) => (path.isAbsolute(p) ? p : path.join(ctx.workdir || '.', p));
  switch (runner) {
    case 'claude':
      switch (t.op) {
        case 'write':
          return { name: 'Write', input: { file_path: abs(t.path), content: t.content } };
        case 'edit':
          return { name: 'Edit', input: { file_path: abs(t.path), old_string: t.old, new_string: t.new } };
        case 'read':
          return { name: 'Read', input: { file_path: abs(t.path) } };
        case 'shell':
          return { name: 'Bash', input: { command: t.command, description: t.description || 'Run shell command' } };
        case 'view_image':
          return { name: 'Read', input: { file_path: abs(t.path) } };
        case 'subagent':
          return {
            name: ctx.agentTool || 'Agent',
            input: {
              description: t.description,
              prompt: t.prompt,
              subagent_type: t.subagent_type || 'general-purpose',
            },
          };
        case 'todo':
          return {
            name: 'TodoWrite',
            input: { todos: t.items.map((x) => ({ content: x.text, status: x.status, activeForm: x.text })) },
          };
        case 'glob':
          return { name: 'Glob', input: { pattern: t.pattern } };
        case 'grep':
          return { name: 'Grep', input: { pattern: t.pattern, path: t.path ? abs(t.path) : undefined } };
      }
      break;
    case 'pi':
      switch (t.op) {
        case 'write':
          return { name: 'write', input: { path: t.path, content: t.content } };
        case 'edit':
          return {
            name: 'edit',
            input:
              ctx.piEditSchema === 'edits'
                ? { path: t.path, edits: [{ oldText: t.old, newText: t.new }] }
                : { path: t.path, oldText: t.old, newText: t.new },
          };
        case 'read':
        case 'view_image':
          return { name: 'read', input: { path: t.path } };
        case 'shell':
          return { name: 'bash', input: { command: t.command } };
        case 'glob':
          return { name: 'find', input: { pattern: t.pattern } };
        case 'grep':
          return { name: 'grep', input: { pattern: t.pattern, path: t.path } };
        case 'ls':
          return { name: 'ls', input: { path: t.path || '.' } };
      }
      break;
    case 'codex':
      switch (t.op) {
        case 'write':
          return codexPatch(
            ctx,
            `*** Begin Patch\n*** Add File: ${t.path}\n${t.content
              .replace(/\n$/, '')
              .split('\n')
              .map((l) => '+' + l)
              .join('\n')}\n*** End Patch\n`,
          );
        case 'edit':
          return codexPatch(
            ctx,
            `*** Begin Patch\n*** Update File: ${t.path}\n@@\n${t.old
              .replace(/\n$/, '')
              .split('\n')
              .map((l) => '-' + l)
              .join('\n')}\n${t.new
              .replace(/\n$/, '')
              .split('\n')
              .map((l) => '+' + l)
              .join('\n')}\n*** End Patch\n`,
          );
        case 'read':
          return codexShell(ctx, `cat ${t.path}`);
        case 'shell':
          return codexShell(ctx, t.command);
        case 'view_image':
          return { name: 'view_image', input: { path: abs(t.path) } };
        case 'todo':
          return { name: 'update_plan', input: { plan: t.items.map((x) => ({ step: x.text, status: x.status })) } };
      }
      break;
  }
  return null;
}
function codexShell(ctx, command) {
  if (ctx.codexShellTool === 'exec_command')
    return { name: 'exec_command', input: { cmd: command, workdir: ctx.workdir || undefined } };
  if (ctx.codexShellTool === 'shell_command')
    return { name: 'shell_command', input: { command, workdir: ctx.workdir || undefined } };
  return { name: 'shell', input: { command: ['bash', '-lc', command], workdir: ctx.workdir || undefined } };
}
function codexPatch(ctx, patch) {
  if (ctx.codexPatchTool === 'custom') return { name: 'apply_patch', custom: true, input: patch };
  if (ctx.codexPatchTool === 'function') return { name: 'apply_patch', input: { input: patch } };
  // no apply_patch tool offered: fall back to a shell heredoc
  return codexShell(ctx, `apply_patch <<'EOF'\n${patch}EOF`);
}
