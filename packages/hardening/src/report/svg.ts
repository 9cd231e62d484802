export interface OverheadBar {
  label: string;
  /** Milliseconds above the floor at p50 (negative values are drawn as 0). */
  overheadMs: number;
  /** p50 / floor p50. */
  ratio: number;
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A horizontal bar chart of p50 overhead per tool (milliseconds above the floor), hand-built SVG. */
export function overheadChart(bars: readonly OverheadBar[], title: string): string {
  const rowHeight = 22;
  const labelWidth = 250;
  const chartWidth = 560;
  const top = 48;
  const height = top + bars.length * rowHeight + 40;
  const width = labelWidth + chartWidth + 170;
  const max = Math.max(1, ...bars.map((b) => b.overheadMs));
  const step = niceStep(max);
  const scale = chartWidth / (Math.ceil(max / step) * step);
  const ticks: string[] = [];
  for (let value = 0; value <= Math.ceil(max / step) * step + 1e-9; value += step) {
    const x = labelWidth + value * scale;
    ticks.push(
      `<line x1="${x.toFixed(1)}" y1="${top - 6}" x2="${x.toFixed(1)}" y2="${height - 34}" stroke="#ddd"/>` +
        `<text x="${x.toFixed(1)}" y="${height - 20}" font-size="11" text-anchor="middle" fill="#555">${formatMs(value)}</text>`,
    );
  }
  const rows = bars.map((bar, i) => {
    const y = top + i * rowHeight;
    const w = Math.max(0, bar.overheadMs) * scale;
    return (
      `<text x="${labelWidth - 8}" y="${y + 15}" font-size="12" text-anchor="end" font-family="monospace">${escape(bar.label)}</text>` +
      `<rect x="${labelWidth}" y="${y + 4}" width="${w.toFixed(1)}" height="${rowHeight - 8}" fill="#3b6ea8"/>` +
      `<text x="${(labelWidth + w + 6).toFixed(1)}" y="${y + 15}" font-size="11" fill="#222">${formatMs(bar.overheadMs)} ms (${bar.ratio.toFixed(2)}x)</text>`
    );
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="${labelWidth}" y="22" font-size="14" font-weight="bold">${escape(title)}</text>`,
    ...ticks,
    ...rows,
    `<text x="${labelWidth + chartWidth / 2}" y="${height - 4}" font-size="11" text-anchor="middle" fill="#555">p50 milliseconds above the floor (ratio p50 / floor p50)</text>`,
    `</svg>`,
    '',
  ].join('\n');
}

function niceStep(max: number): number {
  const rough = max / 6;
  const power = 10 ** Math.floor(Math.log10(rough));
  const unit = [1, 2, 5, 10].find((m) => m * power >= rough) ?? 10;
  return unit * power;
}

function formatMs(value: number): string {
  return value >= 10 ? value.toFixed(0) : value.toFixed(1);
}
