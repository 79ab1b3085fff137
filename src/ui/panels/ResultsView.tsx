import { useEffect, useMemo, useState } from 'react';
import { passRateText, resultsCsv, resultsTable, type ResultsCell } from '../../core/index.ts';
import { describeError } from '../api/index.ts';
import { useWeft, useWeftStore } from '../kit/index.ts';
import { downloadBlob, downloadText, safeFileName } from './download.ts';

type Figure = { key: string; svg: string } | { key: string; error: string };

/** The SVG as a data URL: shown in an <img>, so nothing in it can run in the page. */
function svgUrl(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/** The figure as a PNG at twice its size, drawn from the SVG by the browser. */
async function pngOf(svg: string): Promise<Blob> {
  const image = new Image();
  image.src = svgUrl(svg);
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = image.naturalWidth * 2;
  canvas.height = image.naturalHeight * 2;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('This browser cannot draw a PNG.');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('No PNG was made.'))), 'image/png'),
  );
}

/**
 * Issue 31: the canvas's Results — questions × models with their pass rates over the questions' checks, and a bar
 * chart per check (vega-lite, rendered by the server), exported as CSV, SVG and PNG.
 */
export function ResultsView() {
  const graph = useWeft((state) => state.graph);
  const store = useWeftStore();
  const table = useMemo(() => (graph ? resultsTable(graph) : null), [graph]);
  const cells: readonly ResultsCell[] = table?.cells ?? [];
  const key = JSON.stringify(cells);
  const [figure, setFigure] = useState<Figure | null>(null);
  useEffect(() => {
    if (cells.length === 0) return;
    let live = true;
    store.api.checksFigure({ cells: [...cells] }).then(
      ({ svg }) => live && setFigure({ key, svg }),
      (error: unknown) => live && setFigure({ key, error: describeError(error).message }),
    );
    return () => {
      live = false;
    };
    // `key` is the cells' content: a graph change that leaves the results as they were draws nothing again.
  }, [key, store]);
  if (!graph || !table) return null;
  const name = safeFileName(graph.canvas.name);
  const shown = figure?.key === key ? figure : null;

  async function exportPng(svg: string) {
    try {
      downloadBlob(`${name}-checks.png`, await pngOf(svg));
    } catch (error) {
      store.getState().toast('error', 'figure-failed', describeError(error).message);
    }
  }

  return (
    <div className="page" data-testid="results-view">
      <div className="page-inner">
        <h1>Results</h1>
        <p className="subtitle">
          How each model’s answers on “{graph.canvas.name}” score against their questions’ checks. A check runs on every
          new version; its results are events in the log.
        </p>
        {table.rows.length === 0 ? (
          <div className="card-panel hint" data-testid="results-empty">
            No question carries checks yet. Add checks to a question in its panel, then ask it.
          </div>
        ) : (
          <>
            <div className="card-panel">
              <div className="toolbar-row">
                <span className="hint">
                  {table.rows.length} question × model {table.rows.length === 1 ? 'row' : 'rows'}
                </span>
                <span style={{ flex: 1 }} />
                <button
                  className="button"
                  data-testid="results-export-csv"
                  onClick={() => downloadText(`${name}-results.csv`, resultsCsv(table), 'text/csv')}
                >
                  Export CSV
                </button>
              </div>
              <table className="table" data-testid="results-table">
                <thead>
                  <tr>
                    <th>Question</th>
                    <th>Model</th>
                    <th>Answers</th>
                    <th>Passed</th>
                    <th>Pass rate</th>
                  </tr>
                </thead>
                <tbody>
                  {table.rows.map((row) => (
                    <tr key={`${row.nodeId}|${row.model}`} data-testid="results-row">
                      <td>{row.question}</td>
                      <td>{row.model}</td>
                      <td>{row.answers}</td>
                      <td>
                        {row.passed} of {row.scored}
                      </td>
                      <td>{passRateText(row.passRate)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <div className="card-panel" data-testid="results-chart">
              <div className="toolbar-row">
                <strong>Pass rate per check</strong>
                <span style={{ flex: 1 }} />
                {shown && 'svg' in shown && (
                  <>
                    <button
                      className="button"
                      data-testid="results-export-svg"
                      onClick={() => downloadText(`${name}-checks.svg`, shown.svg, 'image/svg+xml')}
                    >
                      Export SVG
                    </button>
                    <button
                      className="button"
                      data-testid="results-export-png"
                      onClick={() => void exportPng(shown.svg)}
                    >
                      Export PNG
                    </button>
                  </>
                )}
              </div>
              {!shown ? (
                <p className="hint">Drawing the chart…</p>
              ) : 'svg' in shown ? (
                <img
                  data-testid="results-chart-image"
                  src={svgUrl(shown.svg)}
                  alt="Pass rate of each model per check"
                />
              ) : (
                <p className="hint" data-testid="results-chart-error">
                  No chart: {shown.error}
                </p>
              )}
            </div>
          </>
        )}
      </div>
    </div>
  );
}
