package dev.weir.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The exit status of the {@code weir} process, for a run stopped by a signal. When SIGINT or SIGTERM
 * begins the JVM's shutdown, the JVM exits with 128 + the signal's number (130, 143) once the shutdown
 * hooks end, whatever {@link System#exit(int)} is called with meanwhile. A run that stops cleanly on a
 * signal keeps that status; a run whose stop fails (its final checkpoint or export) must exit with its
 * failure's code instead, after its cause is printed: its shutdown hook waits here for {@link WeirCommand#main}
 * to decide the status, and halts with it if it is not 0.
 * <p>
 * Only a process started by {@link WeirCommand#main} decides a status; an embedding that calls
 * {@link WeirCommand#execute(String...)} keeps the JVM's own exit status. Thread-safe.
 */
final class ExitStatus
{
    private static final long DECISION_TIMEOUT_S = 60;
    private static final CountDownLatch DECIDED = new CountDownLatch(1);
    private static volatile boolean fromMain;
    private static volatile int status;

    private ExitStatus()
    {
    }

    /** The process was started by {@link WeirCommand#main}: it will decide a status. */
    static void startedByMain()
    {
        fromMain = true;
    }

    /**
     * The command has ended, its output and error printed.
     *
     * @param code its exit code.
     */
    static void decide(final int code)
    {
        status = code;
        DECIDED.countDown();
    }

    /**
     * For a shutdown hook, once the command it stopped has ended: wait for the exit code (bounded), and if
     * it is not 0, flush the output and halt with it (hooks are running, so {@link System#exit(int)} could
     * not change the status). Returns if the status is 0 or is not decided.
     */
    static void haltIfFailed()
    {
        if (!fromMain)
        {
            return;
        }
        try
        {
            if (!DECIDED.await(DECISION_TIMEOUT_S, TimeUnit.SECONDS))
            {
                return;
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return;
        }
        final int code = status;
        if (code != 0)
        {
            System.out.flush();
            System.err.flush();
            Runtime.getRuntime().halt(code);
        }
    }
}
