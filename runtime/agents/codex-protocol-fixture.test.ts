import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { codexApprovalPolicy, codexSandboxPolicy, codexServerAnswer } from './codex-app-server-protocol.ts';

/** The generated protocol of the pinned Codex (tests/fixtures/codex-app-server-0.171.0) against what Weft sends. */
const generated = (file: string) =>
  readFileSync(
    fileURLToPath(new URL(`../../tests/fixtures/codex-app-server-0.171.0/${file}`, import.meta.url)),
    'utf8',
  );

describe('the Codex adapter speaks the generated app-server protocol', () => {
  it('every method it sends or answers is in the generated unions', () => {
    const client = generated('ClientRequest.ts');
    for (const method of ['initialize', 'thread/start', 'thread/resume', 'thread/fork', 'turn/start', 'turn/interrupt'])
      expect(client).toContain(`"method": "${method}"`);
    const server = generated('ServerRequest.ts');
    for (const method of ['item/commandExecution/requestApproval', 'item/fileChange/requestApproval'])
      expect(server).toContain(`"method": "${method}"`);
    const notifications = generated('ServerNotification.ts');
    for (const method of ['item/started', 'item/completed', 'item/agentMessage/delta', 'turn/completed'])
      expect(notifications).toContain(`"method": "${method}"`);
  });

  it('the sandbox policy is the generated workspaceWrite variant with every field set', () => {
    const policy = generated('v2/SandboxPolicy.ts');
    const sent = codexSandboxPolicy('/work/repo', false);
    expect(policy).toContain('{ "type": "workspaceWrite"');
    for (const key of Object.keys(sent).filter((key) => key !== 'type'))
      expect(policy).toMatch(new RegExp(`workspaceWrite",[^}]*\\b${key}:`));
    expect(generated('v2/AskForApproval.ts')).toContain(`"${codexApprovalPolicy('ask')}"`);
    expect(generated('v2/AskForApproval.ts')).toContain(`"${codexApprovalPolicy('allow')}"`);
  });

  it('the decisions it answers with are generated decision values', () => {
    const command = generated('v2/CommandExecutionApprovalDecision.ts');
    const file = generated('v2/FileChangeApprovalDecision.ts');
    for (const decision of ['allow-once', 'allow-turn', 'deny'] as const) {
      const sent = (codexServerAnswer(1, 'item/fileChange/requestApproval', decision).result as { decision: string })
        .decision;
      expect(command).toContain(`"${sent}"`);
      expect(file).toContain(`"${sent}"`);
    }
  });
});
