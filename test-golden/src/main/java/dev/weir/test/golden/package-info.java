/**
 * Test support for Weir's own format tests: {@link dev.weir.test.golden.GoldenBytes} compares what a writer writes
 * with the committed bytes of each format version. A test-scoped dependency only; depends on nothing in Weir.
 */
package dev.weir.test.golden;
