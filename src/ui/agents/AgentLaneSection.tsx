import { useEffect, useState } from 'react';
import { WORKSPACE_CHANGES_TOOL, type QuestionNode } from '../../../protocol/index.ts';
import { useWeft, useWeftStore } from '../kit/index.ts';
import { atlasStore } from '../atlas/index.ts';
import { agentModel, agentPlan, type WeftStore } from '../store/index.ts';
import { useWorkingDirectory } from './use-working-directory.ts';
import { AgentGrants } from './AgentGrants.tsx';
import { AgentSandboxNotice } from './AgentSandboxNotice.tsx';
import { ApprovalCards } from './ApprovalCards.tsx';
import { useAgent } from './use-agent.ts';

/** The canvas's working directory and guard, shown on a node that runs an agent. */
function AgentSettings() {
  const store = useWeftStore();
  const { folder, setFolder: saveChecked, checking, refusal, pick } = useWorkingDirectory();
  const guard = useWeft((state) => state.graph?.canvas.agentGuard ?? 'ask');
  const network = useWeft((state) => state.graph?.canvas.agentNetwork === true);
  const canvasId = useWeft((state) => state.graph?.canvas.id ?? null);
  const [draft, setDraft] = useState(folder ?? '');
  useEffect(() => setDraft(folder ?? ''), [folder]);
  const save = (workingDirectory: string | null, mode: typeof guard, allowNetwork: boolean = network) =>
    store.getState().apply({ type: 'set-agent-settings', workingDirectory, guard: mode, network: allowNetwork });
  return (
    <div className="agent-settings">
      <label className="field">
        <span>Working directory (this canvas)</span>
        <input
          className="input"
          data-testid="agent-cwd"
          value={draft}
          placeholder="/absolute/path/to/project"
          aria-invalid={refusal !== null}
          onChange={(event) => setDraft(event.target.value)}
          onBlur={() => {
            if (draft.trim() !== (folder ?? '')) void saveChecked(draft.trim());
          }}
        />
      </label>
      {pick && (
        <button
          className="button small"
          data-testid="agent-cwd-pick"
          disabled={checking}
          onClick={() => {
            void pick().then((chosen) => {
              if (chosen === null) return;
              setDraft(chosen);
              return saveChecked(chosen);
            });
          }}
        >
          Choose folder…
        </button>
      )}
      {refusal && (
        <div
          className="meta agent-cwd-error"
          role="alert"
          data-testid="agent-cwd-error"
          data-code={refusal.code}
          title={refusal.code}
        >
          {refusal.message} (the canvas keeps {folder ?? 'no working directory'})
        </div>
      )}
      <label
        className="model-row"
        title="Codex: reads anywhere are not asked; writes outside, network and escalations are."
      >
        <span>Guard</span>
        <select
          className="select"
          data-testid="agent-guard"
          value={guard}
          onChange={(event) => save(folder, event.target.value as typeof guard)}
        >
          <option value="ask">Ask before a tool leaves the folder</option>
          <option value="auto-review">Auto-review (the judge first, then ask)</option>
          <option value="allow">
            Allow inside the folder (Pi still asks for shell and outside; never full access)
          </option>
        </select>
      </label>
      <label className="model-row" title="Whether the agent's shell commands may reach the network">
        <input
          type="checkbox"
          data-testid="agent-network"
          checked={network}
          onChange={(event) => save(folder, guard, event.target.checked)}
        />
        <span>Network for the agent&apos;s commands: {network ? 'on' : 'off'}</span>
      </label>
      <div className="meta" data-testid="agent-network-pi">
        Off, Pi&apos;s and Codex&apos;s shell commands run without a network (the runtime itself still reaches its model
        provider). Unconfined, a Pi command can reach the network either way; Pi&apos;s guard asks before every one.
      </div>
      {canvasId && <AgentSandboxNotice canvasId={canvasId} />}
      <div className="meta" data-testid="agent-guard-codex-reads">
        Codex: reads anywhere are not asked; writes outside, network and escalations are.
      </div>
    </div>
  );
}

/** The same session in the Session Atlas: the runtime's session id is the id the Atlas indexed its file under. */
function openInAtlas(store: WeftStore, runtime: 'pi' | 'codex', sessionId: string): void {
  atlasStore.setState({ runner: runtime, selected: { runner: runtime, sessionId } });
  store.getState().setView('atlas');
}

/** Whether this answer's footprints enter downstream context in full (off: one line naming the changed files). */
function FootprintsSwitch({ node }: { node: QuestionNode }) {
  const store = useWeftStore();
  const on = node.includeFootprints === true;
  return (
    <label className="model-row" title="Downstream context gets every tool call (arguments, files, exit codes)">
      <input
        type="checkbox"
        data-testid="agent-footprints-in-context"
        checked={on}
        onChange={(event) =>
          store
            .getState()
            .apply({ type: 'edit-node', nodeId: node.id, patch: { includeFootprints: event.target.checked } })
        }
      />
      <span>
        {on
          ? 'Footprints in context: downstream gets every tool call in full'
          : 'Footprints in context: off (downstream gets one line naming the changed files)'}
      </span>
    </label>
  );
}

/** C24 on the node panel: settings, the live turn, its open cards, and the footprints of the shown version. */
export function AgentLaneSection({ node }: { node: QuestionNode }) {
  const store = useWeftStore();
  const live = useAgent((state) => state.live[node.id]);
  const picked = agentModel(node.model);
  const version = node.versions.find((candidate) => candidate.id === node.currentVersionId);
  const agent = version?.agent;
  if (!picked && !agent) return null;
  return (
    <div className="section" data-testid="agent-lane">
      <div className="section-title">Agent{picked ? ` · ${picked.runtime}` : ''}</div>
      {picked && <AgentSettings />}
      {picked && <AgentGrants node={node} />}
      <ApprovalCards nodeId={node.id} />
      {live && (
        <div className="answer-box" data-testid="agent-live">
          <div className="meta">{live.tools} tool calls so far</div>
          <div className="streaming-caret agent-live-text">{live.text}</div>
        </div>
      )}
      {!live && agent && (
        <div className="agent-footprints" data-testid="agent-footprints">
          <div className="meta">
            {agent.footprints.filter((footprint) => footprint.toolName !== WORKSPACE_CHANGES_TOOL).length} tool calls ·
            session <code data-testid="agent-session">{agent.sessionId ?? '—'}</code>
            {agent.sessionId && (
              <>
                {' '}
                <button
                  className="button small"
                  data-testid="agent-open-atlas"
                  title="The session file the runtime wrote, as the Session Atlas indexed it"
                  onClick={() => openInAtlas(store, agent.runtime, agent.sessionId!)}
                >
                  Open in Session Atlas
                </button>
              </>
            )}
          </div>
          {agent.changedFiles.length > 0 && (
            <div data-testid="agent-changed-files">Changed: {agent.changedFiles.join(', ')}</div>
          )}
          <ul>
            {agent.footprints.map((footprint) => (
              <li key={footprint.toolCallId} data-testid="agent-footprint">
                {footprint.toolName === WORKSPACE_CHANGES_TOOL ? (
                  <span title="Found by comparing the working directory before and after the turn">
                    found after the turn (shell):
                  </span>
                ) : (
                  <code>{footprint.toolName}</code>
                )}{' '}
                {footprint.files.map((file) => `${file.op} ${file.path}`).join(', ')}
                {footprint.exitCode !== null ? ` · exit ${footprint.exitCode}` : ''}
                {footprint.error ? ` · ${footprint.error}` : ''}
              </li>
            ))}
          </ul>
          <FootprintsSwitch node={node} />
          {agent.approvals.length > 0 && (
            <div className="meta" data-testid="agent-approvals">
              {agent.approvals
                .map((approval) => `${approval.toolName}: ${approval.decision} (${approval.by})`)
                .join(' · ')}
            </div>
          )}
        </div>
      )}
    </div>
  );
}

/** The will-send preview of an agent-lane node: exactly the text the runtime will receive. */
export function AgentWillSend({
  text,
  session,
  block,
}: {
  text: string;
  session: 'continue' | 'fork' | null;
  block: boolean;
}) {
  return (
    <div className="will-send agent" data-testid="agent-will-send">
      <div className="meta">
        {session === 'continue'
          ? 'Continues the session: the question only.'
          : session === 'fork'
            ? "Forks the parent's session, which holds its turns: the question only."
            : block
              ? 'The context as one block, then the question.'
              : 'No upstream context: the question only.'}
      </div>
      <pre className="agent-prompt" data-testid="agent-prompt">
        {text}
      </pre>
    </div>
  );
}

/** The preview of the node's agent turn, computed by the same plan the run uses. */
export function AgentWillSendFor({ node }: { node: QuestionNode }) {
  const graph = useWeft((state) => state.graph);
  const shown = useWeft((state) => state.shown);
  const plan = graph ? agentPlan(graph, shown, node.id) : null;
  if (!plan) return null;
  return (
    <AgentWillSend
      text={plan.prompt.text}
      block={plan.prompt.block !== null}
      session={plan.session === undefined ? null : 'continue' in plan.session ? 'continue' : 'fork'}
    />
  );
}
