/**
 * The files sink: a pipeline's results and late events written as CSV or JSON Lines files, or as date partitions,
 * each replaced atomically. {@link dev.weir.files.ResultFiles} exports a pipeline's output journal;
 * {@link dev.weir.files.ResultReplay} replays a journal from a clean state into files (whole days into partitions);
 * {@link dev.weir.files.ResultCsv} and {@link dev.weir.files.PartitionedResults} write a run's rows as it runs;
 * {@link dev.weir.files.FileOutputSink} exports again while a pipeline runs, as the delivery layer's sink.
 * Rows have the same bytes everywhere: {@link dev.weir.files.ResultRow} is their text.
 * <p>
 * Threading: a writer belongs to the thread that writes its rows (a pipeline's engine thread, or the caller of an
 * export); the files are committed by that caller once the rows are written.
 * <p>
 * Depends on the journal and the engine only.
 */
package dev.weir.files;
