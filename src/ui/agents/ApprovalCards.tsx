import { useWeftStore } from '../kit/index.ts';
import { type ApprovalCard, answerCard } from '../store/index.ts';
import { ApprovalRequestView } from './ApprovalRequestView.tsx';
import { useAgent } from './use-agent.ts';

const NO_CARDS: ApprovalCard[] = [];

/** C24: the runtime's open questions on a node — tool, why, the path that leaves, the whole command; three answers. */
export function ApprovalCards({ nodeId }: { nodeId: string }) {
  const store = useWeftStore();
  const cards = useAgent((state) => state.cards[nodeId] ?? NO_CARDS);
  if (cards.length === 0) return null;
  return (
    <div className="approval-cards nodrag" data-testid="approval-cards">
      {cards.map((card) => (
        <div key={card.request.requestId} className="approval-card" data-testid="approval-card">
          <ApprovalRequestView request={card.request} />
          <div className="button-row">
            <button
              className="button small primary"
              data-testid="approval-allow-once"
              disabled={card.answering}
              onClick={() => void answerCard(store, nodeId, card, 'allow-once')}
            >
              Allow once
            </button>
            <button
              className="button small"
              data-testid="approval-allow-turn"
              disabled={card.answering}
              onClick={() => void answerCard(store, nodeId, card, 'allow-turn')}
            >
              Allow for this turn
            </button>
            <button
              className="button small danger"
              data-testid="approval-deny"
              disabled={card.answering}
              onClick={() => void answerCard(store, nodeId, card, 'deny')}
            >
              Deny
            </button>
          </div>
        </div>
      ))}
    </div>
  );
}
