/**
 * The logs, first stage of the flow: what happened, in order, forever. The events journal (a Chronicle Queue
 * whose index is the offset), the key dictionary beside it, the ingest records that make ingest exactly-once
 * per line, the output journal (results and late events with the source offset each covers), and the
 * journal directory that holds them (marker, single-appender locks).
 * <p>
 * Threading: each appender, reader and output journal belongs to one thread at a time (Chronicle's
 * appenders and tailers are not thread-safe); handing one to another thread goes through a
 * {@code handOff()} where the type has one. One appender per queue, across processes, is enforced by
 * {@link dev.weir.journal.AppendLock}.
 * <p>
 * Packages beside it, in layers: {@code files} at the bottom (the one atomic file replacement and the checksummed
 * file formats), {@code schema} (an event's columns and their rules, the event view, the format exceptions),
 * {@code codec} (the documents' bytes: one encoder and one decoder per document type), this package on them, and
 * {@code retention} above it (removing whole cycles). The string dictionaries stay here: they read the events queue
 * through this package's directory, queues and history base, and the appender and the scans own them.
 * <p>
 * Depends on Chronicle Queue and {@code dev.weir.journal.files}, {@code schema} and {@code codec} only; no other
 * Weir package.
 */
package dev.weir.journal;
