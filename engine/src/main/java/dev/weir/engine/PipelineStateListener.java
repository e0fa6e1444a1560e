package dev.weir.engine;

/**
 * Told of each change of a pipeline run's {@link PipelineState}, in order, once each: {@code STARTING},
 * {@code RUNNING}, {@code STOPPING}, {@code STOPPED}; or {@code FAILED} with its cause, from any of them but
 * {@code STOPPED}, after which nothing more is told.
 * <p>
 * Called on the thread that makes the change: {@code STARTING} and {@code RUNNING} on the thread that
 * starts the pipeline ({@code RUNNING} on the agent's thread in {@code Agent.onStart()} for
 * {@link Pipeline#asAgent()}); {@code STOPPING} and {@code STOPPED} on the thread that stops it (or
 * {@link Pipeline#runToEnd()}'s, or the agent's in {@code onClose()}); {@code FAILED} on the thread that saw
 * the failure (a stage thread, the publisher thread, the background checkpoint writer, the agent's thread or
 * the thread stopping the pipeline). Calls are serialised (never two at once for one pipeline) and made with
 * a lock held: a listener must not block, must not wait for another pipeline thread, and must not call
 * {@link Pipeline#stop()} or {@link Pipeline#close()}; {@link Pipeline#state()} is safe. An exception it
 * throws is logged at WARN and otherwise ignored (added to the cause as suppressed for {@code FAILED}).
 */
@FunctionalInterface
public interface PipelineStateListener
{
    /**
     * @param state the state the run has just moved to.
     * @param cause why it failed, for {@link PipelineState#FAILED}; null for every other state.
     */
    void onStateChange(PipelineState state, Throwable cause);
}
