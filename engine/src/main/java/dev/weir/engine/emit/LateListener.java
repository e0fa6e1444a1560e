package dev.weir.engine.emit;

/**
 * Receives skipped events under the {@code side} late policy, on the engine thread, in arrival order.
 */
@FunctionalInterface
public interface LateListener
{
    /** A listener that ignores late events. */
    LateListener NONE = event -> { };

    /**
     * @param event a flyweight valid only during this call; copy what you keep.
     */
    void onLate(LateEvent event);

    /**
     * Called once after the last late event of a run. Flush here.
     */
    default void onComplete()
    {
    }
}
