export type {
  AgentEvent,
  AgentRuntimeId,
  AgentTurnResult,
  ApprovalDecision,
  ApprovalRequest,
  FileOperation,
  FileTouch,
  Footprint,
  GuardMode,
  TurnStatus,
} from './agent-events.ts';
export { AgentRuntimeError, type AgentRuntimeCode } from './agent-runtime-error.ts';
export { ApprovalGate, type ApprovalDecider, type DecideApproval, type OnApprovalDecision } from './approval-gate.ts';
export {
  CodexAppServerProtocol,
  codexApprovalPolicy,
  codexSandboxPolicy,
  codexServerAnswer,
} from './codex-app-server-protocol.ts';
export { runCodexTurn, type CodexTurnOptions } from './codex-app-server-runtime.ts';
export { prepareCodexHome } from './codex-home.ts';
export { changedFiles, touchedFiles } from './footprint-files.ts';
export { findAgentBin, INSTALL_HINT } from './find-agent-bin.ts';
export { JsonLines } from './json-lines.ts';
export { listCodexModels, listPiModels, type AgentModel } from './list-agent-models.ts';
export { pathLeavingFolder } from './path-leaves-folder.ts';
export { PI_GUARD_OPTIONS, PiRpcProtocol, piDialogAnswer } from './pi-rpc-protocol.ts';
export { PI_GUARD_EXTENSION, piAgentDir, runPiTurn, type PiTurnOptions } from './pi-rpc-runtime.ts';
export { checkWorkingDirectory } from './working-directory.ts';
export { removeMaterialsFolder, writeMaterialsFolder, type MaterialFileInput } from './materials-folder.ts';
export { workspaceChanges, withWorkspaceChanges } from './workspace-changes.ts';
export { snapshotWorkspace, SCAN_LIMIT, type WorkspaceSnapshot } from './workspace-snapshot.ts';
export { codexSignInFailure, codexSignInHint } from './codex-sign-in.ts';
export {
  bwrapArguments,
  sandboxPlan,
  type SandboxPlan,
  type SandboxRequest,
  type SystemLayout,
} from './agent-sandbox.ts';
export { findSandbox, runtimeInstallPaths, systemLayout, type SandboxSupport } from './find-sandbox.ts';
export { sandboxedCommand, type TurnSandbox } from './sandboxed-command.ts';
export { UnconfinedConsent } from './unconfined-consent.ts';
