import { useEffect, useState } from 'react';
import type { CanonicalRequest } from '../../../protocol/index.ts';
import { hashRequest } from './request-hasher.ts';

/**
 * The request hash of exactly `request` (the object, so a new plan is a new request), or null while it is being
 * hashed: a hash is never returned beside a request it was not computed from, so the preview says "hashing…" until
 * the new hash is ready rather than show the last one. A failed digest is an error, not a hash.
 */
export function useRequestHash(request: CanonicalRequest): { hash: string | null; error: string | null } {
  const [done, setDone] = useState<{ request: CanonicalRequest; hash: string | null; error: string | null }>();
  useEffect(() => {
    let current = true;
    hashRequest(request).then(
      (hash) => current && setDone({ request, hash, error: null }),
      (error: unknown) => current && setDone({ request, hash: null, error: String(error) }),
    );
    return () => {
      current = false;
    };
  }, [request]);
  return done?.request === request ? done : { hash: null, error: null };
}
