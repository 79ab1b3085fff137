export { checksChartSvg } from './checks-chart-svg.ts';
