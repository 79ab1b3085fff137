import { join } from 'node:path';
import { z } from 'zod';
import { WebSearchProviderSchema } from '../../protocol/index.ts';
import { JsonFileStore, type AtomicFileSystem } from '../fs/index.ts';

const WebSearchConfigSchema = z.object({
  version: z.literal(1),
  provider: WebSearchProviderSchema.nullable(),
  searxngUrl: z.string().max(2000).nullable(),
});
export type WebSearchConfig = z.infer<typeof WebSearchConfigSchema>;

/**
 * Which web search service the person chose (`$WEFT_HOME/web-search.json`, written atomically). The Brave key
 * is not here: it lives in the secrets file with the provider keys.
 */
export class WebSearchConfigStore {
  private readonly file: JsonFileStore<WebSearchConfig>;

  constructor(home: string, fileSystem?: AtomicFileSystem) {
    this.file = new JsonFileStore(
      join(home, 'web-search.json'),
      WebSearchConfigSchema,
      () => ({ version: 1, provider: null, searxngUrl: null }),
      fileSystem,
    );
  }

  read(): Promise<WebSearchConfig> {
    return this.file.read();
  }

  update(change: (current: WebSearchConfig) => WebSearchConfig): Promise<WebSearchConfig> {
    return this.file.update(change);
  }
}
