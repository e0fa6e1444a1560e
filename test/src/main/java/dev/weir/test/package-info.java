/**
 * The test kit: {@link dev.weir.test.WeirTestDriver} runs a configured pipeline's window stages in memory and
 * synchronously, like Kafka Streams' {@code TopologyTestDriver}, so a rule can be unit-tested without
 * Chronicle, JVM flags or a directory; {@link dev.weir.test.TestResult} and {@link dev.weir.test.TestLateEvent}
 * are the values it returns to assert on.
 * <p>
 * Threading: single-threaded; see each type.
 * <p>
 * Depends on {@code dev.weir.engine} only (its {@code InMemoryRun}); no test framework.
 */
package dev.weir.test;
