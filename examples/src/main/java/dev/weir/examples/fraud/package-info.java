/**
 * An example service that embeds Weir: a card-fraud detector running two following pipelines (spend in
 * sliding windows, bursts in sessions) over journals it appends to in process, with alert latency
 * measured from the closing append.
 * <p>
 * Threading: one producer thread appends; each pipeline's listeners run on its last stage's thread.
 * Depends on the engine's public API only.
 */
package dev.weir.examples.fraud;
