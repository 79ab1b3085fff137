/**
 * Every `bench:*` npm script and the figure lines (`name: value unit`) it must print, full or quick
 * (`WEFT_BENCH_QUICK=1`, same names). `benchmarks.test.ts` (Node) and `e2e/benchmarks.e2e.ts` (Chromium) run each
 * one in quick mode inside `npm test` and check every name here is printed with a number, so a benchmark cannot
 * rot unnoticed. No thresholds: a benchmark is not a timed test.
 */
export interface BenchFigures {
  /** The npm script, e.g. `bench:core`. */
  script: string;
  /** Whether it drives the built app in Chromium (then it runs in the e2e project, after the build). */
  chromium: boolean;
  /** Figure names; an array lists alternatives (one of them is printed). */
  figures: readonly (string | readonly string[])[];
}

const compile = (upstream: number) =>
  ['ms', 'cpu_ms', 'warm_ms', 'cold_ms'].map((suffix) => `compile_${upstream}_upstream_${suffix}`);
const throughput = (name: string) => [`${name}_MBps`, `${name}_cpu_MBps`];

export const BENCH_FIGURES: readonly BenchFigures[] = [
  {
    script: 'bench:recall',
    chromium: false,
    figures: [
      'corpus_MB',
      'corpus_turns',
      'recall_questions',
      'recall_plan_p50_ms',
      'recall_plan_p95_ms',
      'recall_peak_rss_MB',
    ],
  },
  {
    script: 'bench:core',
    chromium: false,
    figures: [
      'load_average_1m',
      'cores',
      ...compile(1000),
      ...compile(4000),
      'compile_4000_over_1000_ratio',
      'compile_4000_over_1000_cpu_ratio',
      'compile_1000_in_5000_cold_ms',
      'compile_1000_in_5000_cold_cpu_ms',
      'stale_full_5k_ms',
      'stale_full_5k_cpu_ms',
      'stale_incremental_20k_ms',
      'stale_incremental_20k_cpu_ms',
      'apply_change_20k_ms',
      'stale_full_20k_ms',
      'stale_full_over_incremental_ratio',
      ...throughput('sha256_js'),
      ...throughput('sha256_node'),
      ...throughput('sha256_canonical'),
      ...throughput('hash_canonical_node'),
      ...throughput('hash_canonical_node_markdown'),
      'stale_full_chain_1000_deep_ms',
      'anchor_append_ms',
      'verify_1m_events_ms',
      'verify_1m_events_cpu_ms',
      'pending_replay_1000_ms',
      'pending_replay_1000_cpu_ms',
    ],
  },
  {
    script: 'bench:server',
    chromium: false,
    figures: [
      'first_token_server_median_ms',
      'first_token_direct_median_ms',
      'first_token_overhead_ms',
      'stream_tokens',
      'stream_tokens_per_s',
      'stream_tokens_per_s_direct',
      'cpus',
      'load_average_1m',
    ],
  },
  {
    script: 'bench:why',
    chromium: false,
    figures: [
      'nproc',
      'corpus_MB',
      'corpus_files',
      'corpus_messages',
      'corpus_turns',
      'corpus_generate_s',
      'json_parse_MBps',
      'index_MBps',
      'index_vs_json_parse',
      'index_s',
      'index_peak_rss_MB',
      'index_turns',
      'index_db_MB',
      'reindex_after_1MB_append_ms',
      'reindex_files_read',
      'reindex_bytes_read_MB',
      'stat_pass_ms',
      'find_p50_ms',
      'find_p95_ms',
      'find_common_phrase_p50_ms',
      'why_p50_ms',
      'why_p95_ms',
      'query_peak_rss_MB',
      // Without ripgrep the scan is timed with grep -rF instead.
      ['rg_find_ms', 'grep_find_ms'],
      ['find_vs_rg', 'find_vs_grep'],
    ],
  },
  {
    script: 'bench:atlas-adapters',
    chromium: false,
    figures: [
      'cpus',
      'atlas list files',
      'atlas list time',
      'atlas read bytes',
      'atlas read throughput',
      'atlas read lines',
      'atlas read turns',
      'atlas saved state size',
      'atlas heap used',
      'atlas largest file',
      'atlas resume after append',
      'atlas full re-read of same file',
    ],
  },
  {
    // The context-repair benchmark (C28); in quick mode both scripted models on one case per family and depth.
    script: 'bench:context',
    chromium: false,
    figures: [
      'cases',
      'conditions',
      ...['scripted_adopt', 'scripted_heed_stale'].flatMap((model) => [
        `${model}_traces_written`,
        `${model}_traces_missing`,
        `${model}_regenerations_missing`,
        `${model}_regeneration_accuracy`,
        ...[
          'clean',
          'polluted',
          'source_prune',
          'subgraph_prune',
          'recompute_descendants',
          'source_prune_stale',
          'stale_instruction',
        ].flatMap((condition) => [`${model}_accuracy_${condition}`, `${model}_adoption_${condition}`]),
      ]),
    ],
  },
  {
    script: 'bench:dossier',
    chromium: false,
    figures: [
      'cores',
      'load_average_1m',
      'dossier_sentences',
      'dossier_dropped_sentences',
      'dossier_citation_check_ms',
      'dossier_live_sentences_ms',
    ],
  },
  {
    script: 'bench:import',
    chromium: false,
    figures: [
      'nproc',
      'load_average_1m',
      'export_MB',
      'export_conversations',
      'import_s',
      'import_MBps',
      'import_peak_rss_MB',
      'import_canvases',
      'import_questions',
      'import_versions',
    ],
  },
  {
    script: 'bench:ui',
    chromium: true,
    figures: [
      ...[2000, 10000, 20000].flatMap((size) => [
        `document_MB_${size}`,
        `first_paint_${size}_ms`,
        `first_paint_server_${size}_ms`,
        `first_paint_minimal_${size}_ms`,
        `first_paint_over_minimal_${size}_ratio`,
        `pan_frame_median_${size}_ms`,
        `fit_settle_${size}_ms`,
        `fit_worst_frame_${size}_ms`,
        `pan_median_at_fit_${size}_ms`,
        `pan_p95_at_fit_${size}_ms`,
        `pan_median_at_summary_${size}_ms`,
        `pan_p95_at_summary_${size}_ms`,
        `heap_after_gc_${size}_MB`,
        `heap_after_gc_minimal_${size}_MB`,
        `heap_over_minimal_${size}_ratio`,
        `save_bytes_first_edit_after_reload_${size}`,
        `save_bytes_per_edit_${size}`,
      ]),
      'map_mode_pan_frame_median_2000_ms',
      'map_mode_pan_p95_2000_ms',
      'panel_open_1000_upstream_ms',
      'keystroke_p95_1000_upstream_ms',
      'keystroke_p95_bare_textarea_ms',
      'keystroke_to_frame_p95_1000_upstream_ms',
      'keystroke_to_frame_p95_bare_textarea_ms',
      'nproc',
      'auto_layout_500_ms',
    ],
  },
  {
    script: 'bench:atlas',
    chromium: true,
    figures: [
      'cores',
      'index_first_build_ms',
      'sessions_listed',
      'list_10000_sessions_ms',
      'mirror_turns',
      'mirror_5000_turns_ms',
      'live_append_latency_ms',
      'load_average',
    ],
  },
  {
    script: 'bench:memory',
    chromium: true,
    figures: [
      'cores',
      'load_average_1m',
      'inbox_proposals',
      'inbox_route_10000_ms',
      'inbox_open_10000_ms',
      'inbox_open_empty_ms',
    ],
  },
];
