import { plural } from '../../core/index.ts';
import { memo } from 'react';
import type { QuestionNode } from '../../../protocol/index.ts';
import { countRender } from '../kit/index.ts';
import { formatTokens } from '../tokens/index.ts';
import { useRequestHash } from './use-request-hash.ts';
import { useWillSend, type WillSend } from './use-will-send.ts';

/** The parts a request carries, as the will-send preview lists them: its messages, and the tools when offered. */
export function sentParts(willSend: Pick<WillSend, 'built'>): number {
  const { request } = willSend.built;
  return request.messages.length + (request.toolDeclarations?.length ? 1 : 0);
}

/**
 * #30: what Ask will send, in one line beside it — parts, tokens and the request hash (short) — so the decision is
 * made with it in view; a click opens the full will-send preview. Its width is fixed by the row, so the hash arriving
 * moves nothing.
 */
export const WillSendSummary = memo(function WillSendSummary({ node, onOpen }: { node: QuestionNode; onOpen(): void }) {
  countRender('will-send-summary');
  const { willSend } = useWillSend(node);
  if (!willSend) return null;
  return <SummaryLine willSend={willSend} onOpen={onOpen} />;
});

function SummaryLine({ willSend, onOpen }: { willSend: WillSend; onOpen(): void }) {
  const { hash, error } = useRequestHash(willSend.built.request);
  const { tokens, counter } = willSend;
  const tokenWord = tokens.total === 1 ? 'token' : 'tokens';
  return (
    <button
      type="button"
      className="will-send-summary"
      data-testid="will-send-summary"
      data-hash={hash ?? ''}
      title={`Sends ${plural(sentParts(willSend), 'part')}, ${formatTokens(tokens.total, counter)} ${tokenWord}, request hash ${hash ?? 'being computed'}. Open the will-send preview.`}
      onClick={onOpen}
    >
      {plural(sentParts(willSend), 'part')} · {formatTokens(tokens.total, counter)} {tokenWord} ·{' '}
      <span className="hash" data-testid="will-send-summary-hash">
        {hash ? hash.slice(0, 8) : error ? 'not hashed' : 'hashing…'}
      </span>
    </button>
  );
}
