/**
 * Test support for Weir's own tests against a real Kafka broker (the one {@code scripts/test-kafka.sh} starts):
 * {@link dev.weir.test.kafka.KafkaTestBroker} finds it (or skips, or fails when it is required), creates topics with
 * unique names and reads a topic back {@code read_committed} as {@link dev.weir.test.kafka.TopicRecord}s.
 */
package dev.weir.test.kafka;
