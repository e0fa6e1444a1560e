package dev.weir.kafka;

import java.util.function.Consumer;

import dev.weir.engine.PipelineAgent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.DynamicCompositeAgent;

/**
 * The one pipeline thread of an instance, {@code <name>-pipelines}: every owned partition's pipeline runs on it as
 * an agent, whatever the number of partitions, added on a takeover and removed on a release.
 * <p>
 * Thread-safety: {@link #add} and {@link #remove} are called on the instance's Kafka thread and wait until the
 * pipeline thread has done it; {@link #start()} and {@link #close()} from the thread that starts and closes the
 * instance.
 */
final class PartitionAgents implements AutoCloseable
{
    private final String threadName;
    private final DynamicCompositeAgent agents;
    private final AgentRunner runner;

    /**
     * @param name   the instance's name: the thread is {@code <name>-pipelines}.
     * @param errors told of an agent's failure, on the pipeline thread.
     */
    PartitionAgents(final String name, final Consumer<Throwable> errors)
    {
        this.threadName = name + "-pipelines";
        this.agents = new DynamicCompositeAgent(threadName);
        this.runner = new AgentRunner(new BackoffIdleStrategy(1, 10, 1_000, 1_000_000), errors::accept, null, agents);
    }

    /** Start the pipeline thread. */
    void start()
    {
        AgentRunner.startOnThread(runner, runnable -> new Thread(runnable, threadName));
    }

    /**
     * @param agent a partition's pipeline, to run on the pipeline thread from now on.
     */
    void add(final PipelineAgent agent)
    {
        while (!agents.tryAdd(agent))
        {
            Thread.onSpinWait();
        }
        while (!agents.hasAddAgentCompleted())
        {
            pause();
        }
    }

    /**
     * @param agent a partition's pipeline, taken off the pipeline thread (closed there); closed here if the thread
     *              is closed already.
     */
    void remove(final PipelineAgent agent)
    {
        if (runner.isClosed())
        {
            agent.onClose();
            return;
        }
        while (!agents.tryRemove(agent))
        {
            Thread.onSpinWait();
        }
        while (!agents.hasRemoveAgentCompleted())
        {
            pause();
        }
    }

    /** Stop the pipeline thread. */
    @Override
    public void close()
    {
        runner.close();
    }

    private static void pause()
    {
        try
        {
            Thread.sleep(1);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }
}
