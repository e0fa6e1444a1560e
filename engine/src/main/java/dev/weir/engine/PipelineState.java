package dev.weir.engine;

/**
 * Where a {@link Pipeline} run is in its life: {@link #NEW} until it is started, then
 * {@link #STARTING}, {@link #RUNNING}, {@link #STOPPING} and {@link #STOPPED}; or {@link #FAILED} from any
 * state but {@link #STOPPED}, once a stage, the publisher, a checkpoint or stopping the run failed.
 * {@link #STOPPED} and {@link #FAILED} are final. A state never goes back to an earlier one.
 * <p>
 * Immutable: an enum.
 */
public enum PipelineState
{
    /** Built, not started: {@link Pipeline#start()}, {@link Pipeline#runToEnd()} or {@link Pipeline#asAgent()} not called yet. */
    NEW,
    /** Opening the run's files and starting its threads (on the thread that starts the pipeline). */
    STARTING,
    /** Processing the journal: its threads run, or its agent has started. */
    RUNNING,
    /** Ending: processing what was published, taking the last checkpoint and releasing threads and files. */
    STOPPING,
    /** Ended normally, its threads ended and its files released. Final. */
    STOPPED,
    /** Failed; the cause is given to the {@link PipelineStateListener} and thrown by {@link Pipeline#stop()}. Final. */
    FAILED;

    /**
     * @return true for {@link #STOPPED} and {@link #FAILED}, which never change.
     */
    public boolean isFinal()
    {
        return this == STOPPED || this == FAILED;
    }
}
