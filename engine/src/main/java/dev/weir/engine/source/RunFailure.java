package dev.weir.engine.source;

/**
 * Where the source reports its own failure and learns whether the run has failed elsewhere, so that it
 * stops publishing into a ring no stage will drain. Implemented by the run's completion
 * ({@code dev.weir.engine.stage.RunCompletion}); the source depends on this contract only.
 * <p>
 * Both methods may be called from any thread.
 */
public interface RunFailure
{
    /**
     * The run failed; the first failure is kept.
     *
     * @param cause why.
     */
    void fail(Throwable cause);

    /**
     * @return the run's first failure, or null while it has not failed.
     */
    Throwable failure();
}
