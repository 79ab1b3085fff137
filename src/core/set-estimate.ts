import type { ModelSet } from '../../protocol/index.ts';
import { plural } from './plural.ts';
import { inputPrice } from './replay-estimate.ts';

/** One model's share of a set's ask. */
export interface SetModelEstimate {
  model: string;
  requests: number;
  inputTokens: number;
  /** Null when the model has no known price. */
  price: number | null;
}

export interface SetEstimate {
  /** Requests the ask sends: models × samples. */
  count: number;
  inputTokens: number;
  perModel: SetModelEstimate[];
  /** Null when any model's price is unknown. */
  price: number | null;
}

/**
 * Issue 31: the plan shown before a set is sent — the count, and the input price per model and in total, priced as
 * Replay prices a step (`inputPrice`). The context is one, so each request reads `inputTokens` tokens.
 */
export function setEstimate(
  set: Pick<ModelSet, 'models' | 'samples'>,
  inputTokens: number,
  pricePerMTokIn: (model: string) => number | null,
): SetEstimate {
  let price: number | null = 0;
  const perModel = set.models.map((model): SetModelEstimate => {
    const tokens = inputTokens * set.samples;
    const modelPrice = inputPrice(tokens, pricePerMTokIn(model));
    price = price === null || modelPrice === null ? null : price + modelPrice;
    return { model, requests: set.samples, inputTokens: tokens, price: modelPrice };
  });
  return {
    count: set.models.length * set.samples,
    inputTokens: inputTokens * perModel.length * set.samples,
    perModel,
    price,
  };
}

/** The price as a person reads it, as Replay's list writes it: cents, or four decimals below a cent. */
function dollars(value: number): string {
  return `$${value.toFixed(value < 0.01 ? 4 : 2)}`;
}

/**
 * Issue 31: the per-ask cap from Settings (null: no cap). An ask over the cap is refused with the words why; so is
 * an ask whose price cannot be known while a cap is set (it could be over), unless every unpriced model is local.
 */
export function setCapRefusal(
  estimate: SetEstimate,
  capUsd: number | null,
  local: (model: string) => boolean,
): string | null {
  if (capUsd === null) return null;
  const unpriced = estimate.perModel.filter((each) => each.price === null && !local(each.model));
  if (unpriced.length > 0)
    return `The price of ${unpriced.map((each) => each.model).join(', ')} is unknown, so this ask cannot be kept under the cap of ${dollars(capUsd)} per ask.`;
  const total = estimate.perModel.reduce((sum, each) => sum + (each.price ?? 0), 0);
  if (total > capUsd)
    return `${plural(estimate.count, 'request')} would cost about ${dollars(total)}, over the cap of ${dollars(capUsd)} per ask (Settings).`;
  return null;
}
