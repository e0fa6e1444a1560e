/**
 * The JMH benchmarks behind BENCHMARKS.md: end to end (journal to results), per stage, the journal's
 * append and scan, latency, state size, recovery, the as-of join, named aggregates, NEXMark and the PostgreSQL sink, with the runners that
 * print their figure tables.
 * <p>
 * Threading: as JMH runs them; each benchmark builds its own journals in a temporary directory. May use
 * the engine's internal packages, to measure one stage alone.
 */
package dev.weir.bench;
