import { plural } from '../../core/index.ts';
import type { Session, Turn } from '../../../protocol/index.ts';
import { AttachmentText } from './AttachmentText.tsx';

/** How a runner-marked turn ended, in words: the marker is the turn's status, never its question. */
export const TURN_STATUS_LABEL: Record<NonNullable<Turn['status']>, string> = {
  interrupted: 'Interrupted',
  'interrupted-tool-use': 'Interrupted during a tool call',
};

/** One turn of the Atlas session view: its question, status, tool steps and the subagent runs it delegated. */
export function SessionTurn({ turn, runs }: { turn: Turn; runs: ReadonlyMap<string, Session> }) {
  return (
    <li data-testid="session-turn" data-put-aside={turn.putAside ? 'true' : undefined}>
      {turn.afterCompaction && <div className="atlas-compaction">Context compacted before this turn</div>}
      <div className="atlas-turn-question">
        {turn.userText.trim() ? <AttachmentText text={turn.userText} length={220} /> : <em>(no text)</em>}
      </div>
      <div className="atlas-turn-meta">
        {turn.putAside && (
          <span className="atlas-turn-status" data-testid="turn-put-aside">
            Put aside ·{' '}
          </span>
        )}
        {turn.status && (
          <span className="atlas-turn-status" data-testid="turn-status" data-status={turn.status}>
            {TURN_STATUS_LABEL[turn.status]}
          </span>
        )}
        {plural(turn.steps.length, 'tool step')}
        {turn.steps.some((step) => step.files.length > 0) &&
          ` · ${plural(new Set(turn.steps.flatMap((step) => step.files)).size, 'file')}`}
        {turn.model && ` · ${turn.model}`}
      </div>
      {turn.subagentSessionIds.map((id) => {
        const run = runs.get(id);
        return (
          <div key={id} className="atlas-subrun" data-testid="subagent-run">
            ↳ Subagent run:{' '}
            {run ? (
              <>
                <AttachmentText text={run.turns[0]?.userText ?? run.title} length={120} /> (
                {plural(run.turns.length, 'turn')})
              </>
            ) : (
              id
            )}
          </div>
        );
      })}
    </li>
  );
}
