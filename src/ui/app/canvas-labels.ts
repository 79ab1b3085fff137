import type { CanvasSummary } from '../../../protocol/index.ts';

const lastFolder = (directory: string) =>
  directory
    .replace(/[\\/]+$/, '')
    .split(/[\\/]/)
    .pop() || directory;

/**
 * What the switcher shows for each canvas: its name, and for a name several canvases share, what tells them apart —
 * the working directory's folder (when theirs differ) and the day it was last changed (with the time when that is
 * the same too).
 */
export function canvasLabels(
  canvases: readonly CanvasSummary[],
  formatDay: (at: number) => string,
  formatTime: (at: number) => string,
): Map<string, string> {
  const byName = new Map<string, CanvasSummary[]>();
  for (const canvas of canvases) byName.set(canvas.name, [...(byName.get(canvas.name) ?? []), canvas]);
  const labels = new Map<string, string>();
  for (const [name, group] of byName) {
    if (group.length === 1) {
      labels.set(group[0]!.id, name);
      continue;
    }
    const directories = new Set(group.map((canvas) => canvas.workingDirectory ?? ''));
    const days = group.map((canvas) => formatDay(canvas.updatedAt));
    for (const [index, canvas] of group.entries()) {
      const parts: string[] = [];
      if (directories.size > 1 && canvas.workingDirectory) parts.push(lastFolder(canvas.workingDirectory));
      const day = days[index]!;
      parts.push(days.filter((other) => other === day).length > 1 ? `${day} ${formatTime(canvas.updatedAt)}` : day);
      labels.set(canvas.id, `${name} — ${parts.join(' · ')}`);
    }
  }
  return labels;
}
