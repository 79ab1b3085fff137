import type { GenerateSetRequest } from '../protocol/index.ts';
import {
  estimateTokensByLength,
  inputPrice,
  isAgentLane,
  setCapRefusal,
  type SetModelEstimate,
} from '../src/core/index.ts';
import type { ServerContext } from './server-context.ts';

/**
 * Issue 31: why the server refuses a set's call whole, before any hash is checked or model called — or null.
 * An agent lane is never in a set (an agent writes files; it is asked by hand). The per-ask cap is the one in the
 * server's own settings, priced from its own model list and its own count of the context it received (the app's
 * estimate, chars / 4), so a client cannot lift it by what it sends: every dispatch in the body is counted.
 */
export async function setRefusal(
  context: Pick<ServerContext, 'settings' | 'registry'>,
  body: GenerateSetRequest,
): Promise<string | null> {
  const agent = body.dispatches.find((each) => isAgentLane(each.model));
  if (agent) return `${agent.model} is an agent lane: agents are asked by hand, not in a set. Nothing was sent.`;
  const { setCapUsd } = await context.settings.read();
  if (setCapUsd === undefined || setCapUsd === null) return null;
  const { models } = await context.registry.listModels();
  let inputTokens = 0;
  for (const message of body.context.messages)
    for (const part of message.content) if (part.type === 'text') inputTokens += estimateTokensByLength(part.text);
  // Priced per dispatch, as it will be billed (a model asked with two temperatures counts twice).
  const requests = new Map<string, number>();
  for (const each of body.dispatches) requests.set(each.model, (requests.get(each.model) ?? 0) + 1);
  const known = (id: string) => models.find((model) => model.id === id);
  let price: number | null = 0;
  const perModel = [...requests].map(([model, count]): SetModelEstimate => {
    const modelPrice = inputPrice(inputTokens * count, known(model)?.pricePerMTokIn ?? null);
    price = price === null || modelPrice === null ? null : price + modelPrice;
    return { model, requests: count, inputTokens: inputTokens * count, price: modelPrice };
  });
  const estimate = {
    count: body.dispatches.length,
    inputTokens: inputTokens * body.dispatches.length,
    perModel,
    price,
  };
  const refusal = setCapRefusal(estimate, setCapUsd, (id) => known(id)?.offline ?? false);
  return refusal ? `${refusal} Nothing was sent.` : null;
}
