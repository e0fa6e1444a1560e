/**
 * The source stage: reads the event journal into a Disruptor ring of pre-allocated
 * {@link dev.weir.engine.source.EventSlot}s ({@link dev.weir.engine.source.JournalPublisher}), on a thread
 * of its own or inline on the consumer's thread when the ring is empty
 * ({@link dev.weir.engine.source.InlineJournalWaitStrategy}). It reports failures through
 * {@link dev.weir.engine.source.RunFailure} and knows nothing of the stages after it. Beside it, on threads
 * of their own: a following run's {@link dev.weir.engine.source.IdleHeartbeats}, which append to the journal
 * it reads while the journal is quiet.
 * <p>
 * Threading: the publisher is the ring's single producer; a slot belongs to the stage that holds its
 * sequence. Internal.
 * <p>
 * Depends on {@code expr} (what it reads of an event: the columns and the filter), {@code aggregate} (the named
 * aggregates' inputs of an event), {@code join}, {@code agent} (the heartbeats' idle strategy),
 * {@code dev.weir.journal}, the Disruptor and Agrona.
 */
package dev.weir.engine.source;
