import type { LaunchedApp } from './launch-app.ts';

/** A provider entry for a scripted model server on 127.0.0.1, reached through the real OpenAI-compatible path. */
export function scriptedProviderEntry(
  url: string,
  models: string[],
  options: { id?: string; apiKey?: string } = {},
): Record<string, unknown> {
  return {
    id: options.id ?? 'scripted',
    kind: 'openai-compatible',
    baseUrl: `${url}/v1`,
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    models,
  };
}

/** Saves settings on the launched app's server, as the Settings page does (PUT /api/settings). */
export function putSettings(app: LaunchedApp, settings: Record<string, unknown>): Promise<Response> {
  return fetch(`${app.server.origin}/api/settings`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${app.server.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(settings),
  });
}
