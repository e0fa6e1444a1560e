/**
 * The PostgreSQL sink: the output journal delivered into a results table by upserts that keep the highest
 * version and replace the rows of sessions that grew (one row per window), each transaction moving the
 * journal's {@code weir_offsets} row with it (exactly-once delivery), with the table's identity checked so
 * that a truncated or re-created table gets every row again.
 * <p>
 * Threading: a sink and its connection belong to one thread (the run's, or the {@code weir-postgres}
 * delivery thread of a following run).
 * <p>
 * Depends on {@code dev.weir.journal} and the PostgreSQL JDBC driver; never on the engine.
 */
package dev.weir.postgres;
