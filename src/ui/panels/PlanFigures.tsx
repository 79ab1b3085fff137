import { formatTokens } from '../tokens/index.ts';
import { formatPrice } from './ReplayList.tsx';

/** What a planned pass will cost: the figures Replay and Re-run under show before anything is sent. */
export interface PlanCost {
  count: number;
  inputTokens: number;
  price: number | null;
  exact: boolean;
}

/** Test ids of the figures; the dialogs name them differently, and Re-run under leaves the tokens unnamed. */
export interface PlanFigureIds {
  count: string;
  tokens?: string;
  price: string;
}

export function PlanFigures({ plan, ids }: { plan: PlanCost; ids: PlanFigureIds }) {
  return (
    <div className="figures">
      <div className="figure">
        <div className="label">Answers</div>
        <div className="value" data-testid={ids.count}>
          {plan.count}
        </div>
      </div>
      <div className="figure">
        <div className="label">Input tokens</div>
        <div
          className="value"
          data-testid={ids.tokens}
          data-exact={ids.tokens === undefined ? undefined : plan.exact ? 'true' : 'false'}
        >
          {formatTokens(plan.inputTokens, plan)}
        </div>
      </div>
      <div className="figure">
        <div className="label">Input price</div>
        <div className="value" data-testid={ids.price}>
          {formatPrice(plan.price, plan.exact)}
        </div>
      </div>
    </div>
  );
}
