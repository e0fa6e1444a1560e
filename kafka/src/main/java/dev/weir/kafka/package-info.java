/**
 * Weir over Apache Kafka: an instance joins a consumer group, runs a Weir pipeline on a local journal for each
 * partition it owns, and commits the results, the consumer offsets and every so often each partition's
 * checkpoint in one Kafka transaction, so that any instance can take a partition over and every result is
 * committed exactly once. {@link dev.weir.kafka.KafkaRun} is the entry point, made by
 * {@link dev.weir.kafka.KafkaRun#builder()}; its records are read by weir-csv's decoder and its rows written as
 * weir-files writes them. {@link dev.weir.kafka.CsvProducer} sends a CSV file to a topic,
 * {@link dev.weir.kafka.CommittedTopic} reads a topic's committed records, and
 * {@link dev.weir.kafka.KafkaInstanceStatus} reads an instance's status from another process.
 * {@link dev.weir.kafka.KafkaOutputSink} delivers a local pipeline's outputs into a topic, as the delivery layer's
 * sink ({@link dev.weir.engine.delivery.OutputSink}).
 */
package dev.weir.kafka;
