package dev.weir.engine;

import java.util.BitSet;

import dev.weir.engine.stage.RunCompletion;
import org.agrona.concurrent.Agent;

/**
 * A following {@link Pipeline} run as an Agrona {@link Agent}, made by {@link Pipeline#asAgent()}: the
 * {@link PipelineLayout#INLINE} layout's work on the application's duty-cycle thread. The journal is read
 * into the same ring of pre-allocated slots, and the same stages apply them (assignment, aggregation,
 * firing, checkpointing), through the ring's {@code EventPoller} instead of a Disruptor event processor
 * thread: results, recovery and exactly-once are those of {@link Pipeline#start()}.
 * <ul>
 * <li>{@link #onStart()}: pins the thread to the first CPU of {@link PipelineBuilder#pinStages(int...)}, if
 * any; the pipeline becomes {@link PipelineState#RUNNING}.</li>
 * <li>{@link #doWork()}: reads up to a batch of new journal documents into the ring, then applies every slot
 * available; returns how many documents were read plus slots applied, 0 when there was nothing new (so the
 * caller's {@code IdleStrategy} backs off). Allocation-free. A failure (a listener that throws, a checkpoint
 * that cannot be written, a journal that cannot be read) fails the run: the state and failure listeners are
 * told at once, the run does no more work and every later call returns 0. It is not thrown, so that the
 * agents sharing a {@code CompositeAgent} keep running.</li>
 * <li>{@link #onClose()}: applies what was read, checkpoints (open windows stay open, to be resumed) and
 * releases the run's files, as {@link Pipeline#stop()} does; restores the thread's affinity. Throws nothing:
 * afterwards the owner's {@link Pipeline#stop()} or {@link Pipeline#close()} returns the run's summary or
 * throws its {@link PipelineFailedException}.</li>
 * </ul>
 * <p>
 * Not thread-safe: one thread calls {@link #onStart()}, {@link #doWork()} and {@link #onClose()} (as an
 * {@code AgentRunner} does). Closing the runner (which waits for its thread) makes the agent's writes
 * visible to the thread that then calls {@link Pipeline#stop()}.
 */
public final class PipelineAgent implements Agent
{
    private final PipelineRun pipeline;
    private final Wiring wiring;
    private final RunCompletion completion;
    private final String roleName;
    private final int cpu;
    private BitSet affinityBefore;
    private boolean closed;

    PipelineAgent(
        final PipelineRun pipeline,
        final Wiring wiring,
        final RunCompletion completion,
        final String roleName,
        final int cpu)
    {
        this.pipeline = pipeline;
        this.wiring = wiring;
        this.completion = completion;
        this.roleName = roleName;
        this.cpu = cpu;
    }

    @Override
    public void onStart()
    {
        if (cpu >= 0)
        {
            try
            {
                affinityBefore = CpuPinning.pin(cpu);
            }
            catch (final RuntimeException ex)
            {
                completion.fail(ex);
                return;
            }
        }
        pipeline.running(true, Thread.currentThread().getName());
    }

    @Override
    public int doWork()
    {
        return wiring.poll();
    }

    @Override
    public void onClose()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        pipeline.stopping();
        wiring.stopPublishing();
        while (!completion.ended())
        {
            wiring.poll(); // the stop marker: a checkpoint, then the run completes; or a failure ends it
        }
        pipeline.release();
        if (affinityBefore != null)
        {
            CpuPinning.restore(affinityBefore);
        }
    }

    /**
     * @return {@code weir-<pipeline>-<run>-agent} ({@code <run>} numbers the runs started in this JVM).
     */
    @Override
    public String roleName()
    {
        return roleName;
    }
}
