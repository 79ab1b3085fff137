import { useEffect, useState } from 'react';
import type { McpServersResponse, McpToolsResponse } from '../../../protocol/index.ts';
import { describeError } from '../api/index.ts';
import { useWeftStore } from '../kit/index.ts';

/**
 * C35: the MCP servers of `mcp.json`, read-only (the file is the source). Env and header values are never shown,
 * only their names. Listing the tools starts the servers, so it waits for the person's click.
 */
export function McpSettings() {
  const store = useWeftStore();
  const [servers, setServers] = useState<McpServersResponse | null>(null);
  const [tools, setTools] = useState<McpToolsResponse | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  useEffect(() => {
    store.api.mcpServers().then(setServers, (error: unknown) => setMessage(describeError(error).message));
  }, [store]);
  const list = () => {
    setMessage('Starting the servers and asking for their tools…');
    store.api.mcpTools().then(
      (listed) => {
        setTools(listed);
        setMessage(null);
      },
      (error: unknown) => setMessage(describeError(error).message),
    );
  };
  const toolsOf = (name: string) => tools?.servers.find((server) => server.name === name);

  return (
    <div className="card-panel" data-testid="mcp-settings">
      <h2>MCP servers</h2>
      <div className="hint">
        Read from <code data-testid="mcp-config-path">{servers?.configPath ?? 'mcp.json'}</code> (edit that file; the
        common <code>{'{ "mcpServers": { … } }'}</code> shape). A question offers their tools only when switched on.
      </div>
      {servers?.error && (
        <div className="hint error" data-testid="mcp-config-error" title={servers.error.code}>
          {servers.error.message}
        </div>
      )}
      {servers && !servers.error && servers.servers.length === 0 && <div className="hint">No servers configured.</div>}
      {servers?.servers.map((server) => {
        const listed = toolsOf(server.name);
        return (
          <div key={server.name} className="field" data-testid="mcp-server">
            <div>
              <strong>{server.name}</strong> ({server.transport}) <code>{server.target}</code>
              {server.secretNames.length > 0 && (
                <span className="hint"> — given {server.secretNames.join(', ')} (values not shown)</span>
              )}
            </div>
            {listed?.error && (
              <div className="hint error" title={listed.error.code}>
                {listed.error.message}
              </div>
            )}
            {listed && (
              <ul data-testid="mcp-server-tool-list">
                {listed.tools.map((tool) => (
                  <li key={tool.name}>
                    <code>{tool.name}</code> — {tool.description}
                  </li>
                ))}
                {listed.skipped.map((skip) => (
                  <li key={skip.tool} className="hint">
                    {skip.tool}: left out ({skip.reason})
                  </li>
                ))}
              </ul>
            )}
          </div>
        );
      })}
      {servers && servers.servers.length > 0 && (
        <div className="button-row">
          <button className="button" data-testid="mcp-list-tools" onClick={list}>
            List their tools
          </button>
          {message && <span>{message}</span>}
        </div>
      )}
    </div>
  );
}
