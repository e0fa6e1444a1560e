/**
 * The PostgreSQL sink: the output journal delivered into a results table by upserts that keep the highest
 * version and replace the rows of sessions that grew (one row per window), each transaction moving the
 * journal's {@code weir_offsets} row with it (exactly-once delivery), with the table's identity checked so
 * that a truncated or re-created table gets every row again.
 * <p>
 * {@link dev.weir.postgres.PostgresOutputSink} is the sink as the engine's delivery layer sees it
 * ({@code dev.weir.engine.delivery.OutputSink}), for continuous delivery while a pipeline runs; its
 * {@code connectOrDefer} connects now, or at the first delivery when the database cannot be reached.
 * <p>
 * Threading: a sink and its connection belong to one thread (the run's, or the
 * {@code weir-<pipeline>-<run>-delivery} thread of a continuous delivery).
 * <p>
 * Depends on {@code dev.weir.journal}, the engine's delivery contract ({@code dev.weir.engine.delivery}) and the
 * PostgreSQL JDBC driver.
 */
package dev.weir.postgres;
