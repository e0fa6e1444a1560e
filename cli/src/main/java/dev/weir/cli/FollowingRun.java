package dev.weir.cli;

import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;

import dev.weir.engine.Pipeline;
import dev.weir.engine.RunSummary;
import dev.weir.journal.JournalDirectory;

/**
 * A {@code weir run --follow}: runs a pipeline over the journal as it grows (the pipeline delivers what is new into
 * PostgreSQL every {@value #DELIVERY_INTERVAL_MS} ms if asked, see {@link RunExecution}), until SIGINT or SIGTERM
 * (a shutdown hook) or the pipeline's failure ({@link #requestStop()}) stops it (with {@code --idle-timeout}, the
 * pipeline appends heartbeats while the journal is quiet: {@link #heartbeatsStopped}); then stops the pipeline (a final
 * checkpoint, and the delivery's last step). The shutdown hook then waits for {@link #finished()}, so that the run
 * exports and prints its summary before the JVM halts, and halts with the run's failure code if its stop failed.
 * <p>
 * {@link #follow} is called on the command thread; {@link #requestStop()} and
 * {@link #finished()} on any thread.
 */
final class FollowingRun
{
    /** How often a following run delivers new results into PostgreSQL. */
    static final long DELIVERY_INTERVAL_MS = 1_000;

    /** Counted down once the run has ended, whether it exported and printed or failed. */
    private final CountDownLatch finished = new CountDownLatch(1);
    /** Counted down on a signal, or at once when the pipeline fails. */
    private final CountDownLatch stopRequested = new CountDownLatch(1);

    /**
     * Say on standard error that the heartbeats of {@code --idle-timeout} stopped; the run goes on without
     * them. The pipeline's listener of that failure, on its heartbeats' thread.
     *
     * @param cause why they stopped.
     */
    static void heartbeatsStopped(final RuntimeException cause)
    {
        System.err.println("weir: idle heartbeats stopped: " + cause.getMessage());
        System.err.flush();
    }

    /**
     * Stop following now (the pipeline failed: the run ends with its cause). Any thread.
     */
    void requestStop()
    {
        stopRequested.countDown();
    }

    /**
     * The run has ended: a signal's shutdown hook may let the JVM exit. Any thread; idempotent.
     */
    void finished()
    {
        finished.countDown();
    }

    /**
     * Start the pipeline and follow the journal until stopped, then stop it.
     *
     * @param pipeline   the pipeline, built and not started.
     * @param out        where to say how to stop it.
     * @param directory  the journal, as the pipeline sees it.
     * @return the pipeline's summary.
     */
    RunSummary follow(final Pipeline pipeline, final PrintStream out, final JournalDirectory directory)
    {
        final Thread hook = new Thread(() ->
        {
            stopRequested.countDown();
            try
            {
                finished.await(); // let the run stop, checkpoint, export and print before the JVM halts
            }
            catch (final InterruptedException ignored)
            {
                Thread.currentThread().interrupt();
            }
            ExitStatus.haltIfFailed(); // a stop that failed exits with its code, not the signal's
        }, "weir-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try
        {
            return followUntilStopped(pipeline, out, directory);
        }
        finally
        {
            try
            {
                Runtime.getRuntime().removeShutdownHook(hook); // stopped by a failure, not a signal
            }
            catch (final IllegalStateException shutdownInProgress)
            {
                // stopped by a signal: the hook is running
            }
        }
    }

    private RunSummary followUntilStopped(final Pipeline pipeline, final PrintStream out, final JournalDirectory directory)
    {
        pipeline.start();
        out.println("Following the journal; stop with Ctrl-C (SIGINT) or SIGTERM: a checkpoint is taken and the results exported.");
        out.flush();
        try
        {
            stopRequested.await();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        return pipeline.stop(); // the delivery's last step too, even if the pipeline failed: its thread ends before the sink is closed
    }
}
