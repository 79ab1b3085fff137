/** A refusal is data, not an exception: callers branch on `ok` and show `error.message`. */
export type Result<Value, Failure> = { ok: true; value: Value } | { ok: false; error: Failure };

export function success<Value>(value: Value): { ok: true; value: Value } {
  return { ok: true, value };
}

export function failure<Failure>(error: Failure): { ok: false; error: Failure } {
  return { ok: false, error };
}
