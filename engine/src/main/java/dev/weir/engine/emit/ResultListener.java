package dev.weir.engine.emit;

/**
 * Receives window results on the engine thread, in the engine's deterministic order.
 * An implementation must not block for long: it holds up the pipeline.
 */
@FunctionalInterface
public interface ResultListener
{
    /**
     * @param result a flyweight valid only during this call; copy what you keep.
     */
    void onResult(WindowResult result);

    /**
     * Called once when the engine has emitted its last result of a run (end of a bounded input, or
     * shutdown). Flush here.
     */
    default void onComplete()
    {
    }
}
