package dev.weir.engine;

/**
 * Told once, as soon as a pipeline run fails: a stage or the journal publisher threw (a checkpoint that
 * cannot be written, a listener that threw, a journal that cannot be read), or stopping the run failed.
 * A following pipeline that fails processes nothing more, so an application should react at once:
 * typically wake the thread that owns the pipeline, which then calls {@link Pipeline#stop()} to release
 * its threads and files (that call throws the {@link PipelineFailedException}).
 * <p>
 * Called on the thread that saw the failure (a stage thread, the publisher thread, the background
 * checkpoint writer, the thread running {@link Pipeline#asAgent()}'s agent, or the thread stopping the
 * pipeline), after the failure is recorded and logged, and after the {@link PipelineStateListener} is told of
 * {@link PipelineState#FAILED}, with the same lock held: it must not block, and must not call
 * {@link Pipeline#stop()} or {@link Pipeline#close()} itself. An exception it throws is added to the
 * failure as suppressed. A convenience for a state listener that only looks at {@code FAILED}.
 */
@FunctionalInterface
public interface PipelineFailureListener
{
    /**
     * @param cause why the run failed.
     */
    void onFailure(Throwable cause);
}
