import { plural } from '../../core/index.ts';
import { memo } from 'react';
import type { CanonicalRequest } from '../../../protocol/index.ts';
import { useRequestHash } from './use-request-hash.ts';

/**
 * The preview's request hash (C9), hashed natively after the preview is drawn: "hashing…" until the hash of this very
 * request is ready (`data-ready`), never an earlier request's. Its own component, so the hash arriving re-renders
 * this line only.
 */
export const RequestHash = memo(function RequestHash({ request }: { request: CanonicalRequest }) {
  const { hash, error } = useRequestHash(request);
  return (
    <>
      <div className="section-title" style={{ marginTop: 8 }}>
        Request hash ({plural(request.messages.length, 'message')} · {request.model})
      </div>
      <div className="hash-line" data-testid="preview-hash" data-ready={hash ? 'true' : 'false'}>
        {hash ?? (error ? `not hashed: ${error}` : 'hashing…')}
      </div>
    </>
  );
});
