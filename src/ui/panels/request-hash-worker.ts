// The worker of `request-hasher.ts`: hashes a will-send request (C9) off the renderer's main thread.
import { hashCanonicalNative } from './hash-canonical-native.ts';

onmessage = (event: MessageEvent<{ id: number; request: unknown }>) => {
  const { id, request } = event.data;
  hashCanonicalNative(request).then(
    (hash) => postMessage({ id, hash }),
    (error: unknown) => postMessage({ id, error: String(error) }),
  );
};
