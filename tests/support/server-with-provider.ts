import type { StartServerOptions } from '../../server/start-server.ts';
import { startScriptedProvider, type ScriptedProvider } from './scripted-provider.ts';
import { startTestServer, type TestServer } from './test-server.ts';

export interface ServerWithProviderOptions {
  /** The models the scripted provider serves, as provider `local` (so `local/<model>` in settings and nodes). */
  models: string[];
  /** The provider's API key; tests that search logs for keys pass their own. */
  apiKey?: string;
  /** Further settings saved with the provider, e.g. `judgeModelId`, `defaultModelId`. */
  settings?: Record<string, unknown>;
  /** Options for the real server, e.g. `now`, `crossrefUrl`. */
  server?: Partial<StartServerOptions>;
}

export interface ServerWithProvider {
  server: TestServer;
  provider: ScriptedProvider;
  /** Closes the server (deleting its home) and the provider. */
  dispose(): Promise<void>;
}

/**
 * A scripted provider on 127.0.0.1 and a real test server whose settings point at it as one OpenAI-compatible
 * provider — the preamble of every test that asks through the server.
 */
export async function startServerWithProvider(options: ServerWithProviderOptions): Promise<ServerWithProvider> {
  const provider = await startScriptedProvider();
  let server: TestServer | undefined;
  const dispose = async () => {
    await server?.dispose();
    await provider.close();
  };
  try {
    server = await startTestServer(options.server);
    const response = await server.api('/api/settings', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        providers: [
          {
            id: 'local',
            kind: 'openai-compatible',
            baseUrl: `${provider.url}/v1`,
            apiKey: options.apiKey ?? 'sk-test-scripted-0123456789',
            models: options.models,
          },
        ],
        ...options.settings,
      }),
    });
    if (!response.ok) throw new Error(`settings refused the provider: ${response.status} ${await response.text()}`);
    return { server, provider, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}
