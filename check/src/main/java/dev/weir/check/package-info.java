/**
 * Offline reports over a journal: {@code weir check}'s data-quality checks over a journal, its checkpoints and its
 * exported results (row counts, late and rejected shares, duplicates, gaps), against thresholds
 * ({@link dev.weir.check.QualityReport}), read from text by {@link dev.weir.check.QualitySettings}; and {@code weir inspect}'s description of what a journal holds
 * ({@link dev.weir.check.JournalInspection}). Each report is written as the command's text by {@link dev.weir.check.CheckReport} and
 * {@link dev.weir.check.InspectionReport}, for a service's logs or admin endpoint. Outside the runtime engine: nothing here runs on an engine thread.
 * <p>
 * Threading: the caller's thread; every result is immutable. Depends on {@code dev.weir.journal} and, read-only, on
 * the engine's public {@code status} (checkpoints, metrics files), {@code retention} (the floor) and {@code time}
 * (durations as text) packages.
 */
package dev.weir.check;
