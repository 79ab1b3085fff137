import { expect } from 'vitest';
import { startScriptedProvider, type ScriptedProvider } from '../../tests/support/index.ts';
import { CanvasDriver } from './canvas-driver.ts';
import { launchApp, type LaunchedApp } from './launch-app.ts';
import { putSettings, scriptedProviderEntry } from './put-settings.ts';

export interface ScriptedApp {
  app: LaunchedApp;
  canvas: CanvasDriver;
  provider: ScriptedProvider;
  close(): Promise<void>;
}

/**
 * The real app in Chromium with one scripted provider on 127.0.0.1 serving `model-a` and `model-b`, `model-a` the
 * default, saved through the real settings route and reloaded so the page sees it. `script` sets the provider's
 * replies before the app starts.
 */
export async function launchScriptedApp(
  apiKey: string,
  script: (provider: ScriptedProvider) => void,
): Promise<ScriptedApp> {
  const provider = await startScriptedProvider();
  let app: LaunchedApp | undefined;
  try {
    script(provider);
    app = await launchApp();
    const settings = await putSettings(app, {
      providers: [scriptedProviderEntry(provider.url, ['model-a', 'model-b'], { apiKey })],
      defaultModelId: 'scripted/model-a',
    });
    expect(settings.status).toBe(200);
    await app.reload();
  } catch (error) {
    await app?.close();
    await provider.close();
    throw error;
  }
  const launched = app;
  return {
    app: launched,
    canvas: new CanvasDriver(launched.page),
    provider,
    async close() {
      await launched.close();
      await provider.close();
    },
  };
}
