/**
 * The Disruptor adapters: the event handlers that run the window operator's two steps on ring slots
 * (assign, then aggregate; or both fused on one thread), the {@link dev.weir.engine.stage.LastStage}
 * that applies a slot, checkpoints and reports progress, and the run's
 * {@link dev.weir.engine.stage.RunCompletion}.
 * <p>
 * Threading: each handler runs on its stage thread; {@code RunCompletion} is read by any thread.
 * Internal.
 * <p>
 * Depends on {@code source}, {@code operator}, {@code emit} and {@code checkpoint}.
 */
package dev.weir.engine.stage;
