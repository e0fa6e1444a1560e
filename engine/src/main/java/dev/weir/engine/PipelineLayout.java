package dev.weir.engine;

/**
 * How the pipeline's stages are mapped to threads.
 */
public enum PipelineLayout
{
    /** Assignment, aggregation and firing on one consumer thread (the default on small machines). */
    FUSED,
    /** Assignment on one consumer thread, aggregation and firing on a second, chained through the ring. */
    STAGED,
    /**
     * One thread for everything: the consumer reads the journal into the ring itself whenever it has
     * processed every slot (no publisher thread). Leaves a core free for the application's producers.
     */
    INLINE
}
