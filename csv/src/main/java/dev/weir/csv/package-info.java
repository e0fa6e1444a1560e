/**
 * The CSV source: an events CSV file or stream appended to a journal exactly once and resumably
 * ({@link dev.weir.csv.CsvIngest}), every line parsed by one parser with one set of reject reasons
 * ({@link dev.weir.csv.CsvLineParser}), and a Kafka record's CSV value decoded into a journal
 * ({@link dev.weir.csv.CsvRecordDecoder}). Refusals of a whole input are {@link dev.weir.csv.CsvInputException}s.
 * <p>
 * Threading: every class is used by one thread, the one that owns the journal it appends to; an ingest's
 * progress may be sampled from another.
 * <p>
 * Depends on the journal only.
 */
package dev.weir.csv;
