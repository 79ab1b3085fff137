import type { ApprovalRequestValue } from '../../../protocol/index.ts';

/** Longer file contents are cut on a card (the person can open the file); a command never is. */
const CONTENT_LIMIT = 2000;

const REASONS: Record<string, string> = {
  'path-leaves-folder': 'a path leaves the working directory',
  'shell-command': 'a shell command',
  'file-change': 'a file change',
  'unknown-tool': 'a tool Weft cannot check',
};

/** The arguments without the command, long strings (file contents) cut, with how much of each was cut. */
function otherArguments(args: Record<string, unknown>): string {
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (key === 'command') continue;
    rest[key] =
      typeof value === 'string' && value.length > CONTENT_LIMIT
        ? `${value.slice(0, CONTENT_LIMIT)}… [${value.length - CONTENT_LIMIT} more characters not shown]`
        : value;
  }
  return Object.keys(rest).length > 0 ? JSON.stringify(rest, null, 1) : '';
}

function commandText(command: unknown): string | null {
  if (typeof command === 'string') return command;
  if (Array.isArray(command) && command.every((part) => typeof part === 'string')) return command.join(' ');
  return null;
}

/** C24: what a card asks about — the tool, why it asks, the path that leaves, the whole command, the arguments. */
export function ApprovalRequestView({ request }: { request: ApprovalRequestValue }) {
  const args = request.args;
  const record =
    args !== null && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : null;
  const command = record ? commandText(record.command) : null;
  const rest = record ? otherArguments(record) : (JSON.stringify(args, null, 1) ?? '');
  return (
    <>
      <div className="approval-title">
        <strong>{request.toolName}</strong> asks to run
      </div>
      {request.reason && (
        <div className="approval-reason" data-testid="approval-reason">
          why: {REASONS[request.reason] ?? request.reason}
        </div>
      )}
      {request.leaves && (
        <div className="approval-leaves" data-testid="approval-leaves">
          leaves the folder: <code>{request.leaves}</code>
        </div>
      )}
      {command !== null && (
        <pre className="approval-args approval-command" data-testid="approval-command">
          {command}
        </pre>
      )}
      {rest && <pre className="approval-args">{rest}</pre>}
    </>
  );
}
