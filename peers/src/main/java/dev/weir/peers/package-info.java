/**
 * Weir side by side with Apache Flink: {@link dev.weir.peers.PeerCsv} writes the events CSV both engines read,
 * {@link dev.weir.peers.FlinkWindowJob} runs the same windowed job in Flink 1.20 (DataStream API, local
 * environment). {@code benchmarks/run-peers.sh} times both processes and compares their rows.
 */
package dev.weir.peers;
