package dev.weir.engine;

/**
 * How the pipeline's stages are mapped to threads.
 */
public enum PipelineLayout
{
    /** Assignment, aggregation and firing on one consumer thread (the default on small machines). */
    FUSED,
    /** Assignment on one consumer thread, aggregation and firing on a second, chained through the ring. */
    STAGED
}
