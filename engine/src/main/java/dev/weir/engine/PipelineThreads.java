package dev.weir.engine;

import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

import org.agrona.ErrorHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.IdleStrategy;

import dev.weir.engine.source.RunFailure;

/**
 * Makes the threads of one pipeline run, names them, pins them, and remembers them so a finishing run can
 * wait for them to end.
 * <p>
 * Names are {@code weir-<pipeline>-<run>-<job>}: {@code stage-<i>}, {@code publisher}, and the background
 * agents ({@link #startAgent}): {@code checkpoint} (the checkpoint writer), {@code metrics} (the latency
 * sampler), {@code retention}, {@code heartbeats} and {@code delivery} (of a following run), where
 * {@code <run>} numbers the runs started in this JVM (from 1), so two pipelines of one name on two journals
 * stay apart. Each thread runs a task that wraps Weir's: it pins the thread if {@link CpuPinning} says so,
 * runs Weir's task, records any throwable that escapes it as the run's failure (so the JVM prints nothing
 * and the thread's uncaught-exception handler is not reached by Weir's failures), and restores the thread's
 * affinity. The wrapping task's {@code toString()} is the Weir name.
 * <p>
 * Without an application {@link ThreadFactory} the threads are daemons named as above. With one, Weir calls
 * its {@code newThread(task)} and uses the thread it returns as it is: name, daemon flag, priority, group and
 * uncaught-exception handler are the factory's (it may name the thread from {@code task.toString()}). Weir
 * starts the thread itself and never reuses it.
 * <p>
 * Thread-safe; threads are made by the thread that starts the run.
 */
final class PipelineThreads
{
    private static final AtomicInteger RUNS = new AtomicInteger();

    private final String prefix;
    private final ThreadFactory factory;
    private final CpuPinning pinning;
    private final RunFailure completion;
    private final AtomicInteger nextStage = new AtomicInteger();
    private final List<Thread> stageThreads = new CopyOnWriteArrayList<>();

    /**
     * @param pipeline   the pipeline's name.
     * @param factory    the application's thread factory, or null.
     * @param pinning    the CPUs to pin the threads to.
     * @param completion told of a throwable escaping a thread's task.
     */
    PipelineThreads(final String pipeline, final ThreadFactory factory, final CpuPinning pinning, final RunFailure completion)
    {
        this.prefix = "weir-" + pipeline + "-" + RUNS.incrementAndGet();
        this.factory = factory;
        this.pinning = pinning;
        this.completion = completion;
    }

    /**
     * @return {@code weir-<pipeline>-<run>}, the prefix of every thread name of this run.
     */
    String prefix()
    {
        return prefix;
    }

    /**
     * @return the factory the Disruptor makes the stage threads with.
     */
    ThreadFactory stages()
    {
        return task ->
        {
            final int index = nextStage.getAndIncrement();
            final Thread thread = newThread(prefix + "-stage-" + index, pinning.stageCpu(index), task);
            stageThreads.add(thread);
            return thread;
        };
    }

    /**
     * @param task the publisher.
     * @return its thread, not started.
     */
    Thread publisher(final Runnable task)
    {
        return newThread(prefix + "-publisher", pinning.publisherCpu(), task);
    }

    /**
     * @param job    the job's name: the thread's suffix, e.g. {@code checkpoint}.
     * @param errors told of every exception the agent's duty cycle throws.
     * @return what starts an agent, with its idle strategy, as {@link #startAgent} does, for a part of the run
     *         that starts its own agent when it needs it (the checkpoint writer on its first checkpoint).
     */
    BiFunction<Agent, IdleStrategy, AgentRunner> agents(final String job, final ErrorHandler errors)
    {
        return (agent, idle) -> startAgent(job, agent, idle, errors);
    }

    /**
     * Run a background {@link Agent} of this pipeline (heartbeats, delivery, retention, a checkpoint writer) on
     * its own thread, named {@code <prefix>-<job>}, never pinned, made like every other thread of the run (by the
     * application's factory when it gave one). An exception thrown by the agent's duty cycle goes to
     * {@code errors} (the agent decides whether it goes on: Agrona's {@link AgentRunner} keeps calling
     * {@link Agent#doWork()} unless the agent throws {@link org.agrona.concurrent.AgentTerminationException});
     * a throwable that escapes the runner is the run's failure, as for every pipeline thread.
     *
     * @param job    the job's name: the thread's suffix, e.g. {@code heartbeats}.
     * @param agent  the agent.
     * @param idle   its idle strategy between duty cycles that did no work.
     * @param errors told of every exception the duty cycle throws.
     * @return the runner, started; {@link AgentRunner#close()} stops it and waits for {@link Agent#onClose()}.
     */
    AgentRunner startAgent(final String job, final Agent agent, final IdleStrategy idle, final ErrorHandler errors)
    {
        final AgentRunner runner = new AgentRunner(idle, errors, null, agent);
        newThread(prefix + "-" + job, -1, runner).start(); // not AgentRunner.startOnThread: it renames the thread
        return runner;
    }

    private Thread newThread(final String name, final int cpu, final Runnable task)
    {
        final WeirTask wrapped = new WeirTask(name, cpu, task, completion);
        if (factory == null)
        {
            final Thread thread = new Thread(wrapped, name);
            thread.setDaemon(true);
            return thread;
        }
        final Thread thread = factory.newThread(wrapped);
        if (thread == null)
        {
            throw new IllegalStateException("the pipeline's thread factory made no thread for " + name);
        }
        return thread;
    }

    /**
     * Wait for the stage threads to end (but the calling one).
     *
     * @param millis how long to wait for each.
     */
    void joinStages(final long millis)
    {
        try
        {
            for (final Thread thread : stageThreads)
            {
                if (thread != Thread.currentThread())
                {
                    thread.join(millis);
                }
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** Weir's task on a pipeline thread: pinned, its failure the run's. */
    private static final class WeirTask implements Runnable
    {
        private final String name;
        private final int cpu;
        private final Runnable task;
        private final RunFailure completion;

        WeirTask(final String name, final int cpu, final Runnable task, final RunFailure completion)
        {
            this.name = name;
            this.cpu = cpu;
            this.task = task;
            this.completion = completion;
        }

        @Override
        public void run()
        {
            BitSet before = null;
            try
            {
                if (cpu >= 0)
                {
                    before = CpuPinning.pin(cpu);
                }
                task.run();
            }
            catch (final Throwable ex)
            {
                completion.fail(ex);
            }
            finally
            {
                if (before != null)
                {
                    CpuPinning.restore(before);
                }
            }
        }

        @Override
        public String toString()
        {
            return name;
        }
    }
}
