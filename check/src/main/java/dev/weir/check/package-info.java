/**
 * {@code weir check}: offline data-quality reports over a journal, its checkpoints and its exported
 * results (row counts, late and rejected shares, duplicates, gaps), against thresholds. Outside the
 * runtime engine: nothing here runs on an engine thread.
 * <p>
 * Threading: one command thread. Depends on {@code dev.weir.journal} and, read-only, on the engine's
 * checkpoint store and operator counters.
 */
package dev.weir.check;
