/**
 * Weir side by side with its peers. With Apache Flink: {@link dev.weir.peers.PeerCsv} writes the events CSV both
 * engines read, {@link dev.weir.peers.FlinkWindowJob} runs the same windowed job in Flink 1.20 (DataStream API, local
 * environment); {@code benchmarks/run-peers.sh} times both processes and compares their rows. With Kafka Streams
 * 4.4 on a Kafka topic: {@link dev.weir.peers.KafkaStreamsWindows} runs the windowed job with exactly_once_v2,
 * {@link dev.weir.peers.PaymentsProducer} fills the input topic, {@link dev.weir.peers.OutputWatch} notes when the last
 * result is committed and {@link dev.weir.peers.LatencyProbe} measures the end-to-end latency of any job writing
 * Weir's rows; {@code benchmarks/kafka-peers.sh} runs them.
 */
package dev.weir.peers;
