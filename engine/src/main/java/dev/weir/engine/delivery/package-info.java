/**
 * Delivery of a pipeline's outputs to a target outside Weir (a database table, files, a topic): one
 * {@link dev.weir.engine.delivery.OutputSink} per target tails the pipeline's output journal from a position the
 * target holds durably, and {@link dev.weir.engine.delivery.ContinuousDelivery} runs it while the pipeline runs
 * (see {@link dev.weir.engine.PipelineBuilder#deliverContinuously}), retrying with backoff while the target is
 * unavailable.
 * <p>
 * The output journal is the one source of truth: a sink reads its binary documents, never text, and regenerated
 * outputs are verified once, by the engine, before they are written there (a recovery that does not reproduce them
 * fails the run). So a sink only has to commit what it writes and the position it reached together.
 * <p>
 * It depends on the journal only; the engine's root package starts it with the run's threads.
 */
package dev.weir.engine.delivery;
