import type pg from 'pg';

/**
 * How to reach a team's database so that TLS is used whenever the server offers it. A URL that names `sslmode`
 * (or another TLS parameter) is taken as written by `pg`'s parser. A URL that names none gets libpq's default,
 * `prefer`: TLS first (encrypted, the certificate not checked, as libpq's `prefer` does not check it), and the
 * plain connection only when the server answers that it has no TLS at all. Any other failure is reported as it is.
 */
export async function withPreferredTls<T>(url: string, attempt: (config: pg.ClientConfig) => Promise<T>): Promise<T> {
  if (namesTls(url)) return attempt({ connectionString: url });
  try {
    return await attempt({ connectionString: url, ssl: { rejectUnauthorized: false } });
  } catch (error) {
    if (!offersNoTls(error)) throw error;
    return attempt({ connectionString: url });
  }
}

/** The URL says how TLS is to be used: the person's choice stands. */
function namesTls(url: string): boolean {
  const query = url.indexOf('?');
  if (query < 0) return false;
  const names = [...new URLSearchParams(url.slice(query + 1)).keys()];
  return names.some((name) => /^(ssl|sslmode|sslrootcert|sslcert|sslkey|sslnegotiation|uselibpqcompat)$/i.test(name));
}

/** `pg`'s error when the server refuses the TLS request (its `N` answer to SSLRequest). */
function offersNoTls(error: unknown): boolean {
  return error instanceof Error && /does not support SSL connections/i.test(error.message);
}
