/**
 * An example service that embeds Weir: a card-fraud detector running six following pipelines (spend above each
 * card's own limit in sliding windows, payments outside the card's home country, bursts in sessions, ...) over a
 * journal of payments and card profiles it appends to in process, with alert latency measured from the append of
 * the payment that raised each alert.
 * <p>
 * Threading: one producer thread appends; each pipeline's listeners run on its last stage's thread.
 * Depends on the engine's public API only.
 */
package dev.weir.examples.fraud;
