package dev.weir.cli;

import dev.weir.csv.CsvInputException;
import dev.weir.engine.resume.CheckpointMismatchException;
import dev.weir.engine.resume.ResumeAfterEndException;
import dev.weir.engine.time.UnitlessDurationException;
import dev.weir.files.ExportRefusedException;
import dev.weir.files.ReplayRefusedException;
import dev.weir.journal.JournalRefusedException;
import dev.weir.journal.JvmFlagsMissingException;
import dev.weir.journal.NewerFormatException;
import dev.weir.journal.OffsetUnavailableException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The {@code weir} command: one subcommand per class. A usage error (unknown flag, bad value, missing
 * file, refused journal directory, a checkpoint of another configuration or version) prints one line and
 * exits with code 2; a run that completed but could not deliver its results to PostgreSQL exits with code 4
 * ({@link #DELIVERY_PENDING}); any other failure (a full disk among them) prints its cause and exits 1, also when it happens while a run stops on SIGINT
 * or SIGTERM (a clean stop on a signal exits 130 or 143, see {@link ExitStatus}).
 */
@Command(name = "weir", mixinStandardHelpOptions = true, version = "weir 0.1.0",
    description = "Low-latency streaming ETL: event-time windows over a Chronicle Queue journal.",
    subcommands = {RunCommand.class, IngestCommand.class, ProduceCommand.class, ConsumeCommand.class, ReplayCommand.class, InspectCommand.class, StatCommand.class, CheckCommand.class, RetainCommand.class, DemoCommand.class})
public final class WeirCommand implements Runnable
{
    /** Exit code for usage and input errors. */
    public static final int USAGE = 2;
    /**
     * Exit code of a run that completed (ingest, processing, files) but left results not delivered to
     * PostgreSQL (the database is down or hangs); the next run delivers them. ({@code weir check} uses 3.)
     */
    public static final int DELIVERY_PENDING = 4;
    /** The environment variable that sets the level of Weir's log lines (off by default). */
    public static final String LOG_LEVEL_VARIABLE = "WEIR_LOG_LEVEL";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run()
    {
        throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required (run, ingest, replay, inspect, demo)");
    }

    /**
     * @param args the command line.
     */
    public static void main(final String[] args)
    {
        logLevel(System.getenv(LOG_LEVEL_VARIABLE));
        ExitStatus.startedByMain();
        final int code = execute(args);
        ExitStatus.decide(code); // a run stopped by a signal exits with it if it is a failure's
        System.exit(code);
    }

    /**
     * Weir's own log lines (SLF4J, through slf4j-simple, on standard error) are off in the CLI, whose
     * messages already say what happened: {@code WEIR_LOG_LEVEL=info} (or trace, debug, warn, error) turns
     * them on. Set before the first logger is made.
     *
     * @param level the variable's value, or null.
     */
    static void logLevel(final String level)
    {
        if (level != null && !level.isBlank())
        {
            System.setProperty("org.slf4j.simpleLogger.log.dev.weir", level.trim().toLowerCase(java.util.Locale.ROOT));
        }
    }

    /**
     * Run the command line without exiting the JVM (for tests and embedding).
     *
     * @param args the command line.
     * @return the exit code.
     */
    public static int execute(final String... args)
    {
        final CommandLine commandLine = new CommandLine(new WeirCommand()).setCaseInsensitiveEnumValuesAllowed(true);
        commandLine.setParameterExceptionHandler((ex, arguments) ->
        {
            final CommandLine cmd = ex.getCommandLine();
            cmd.getErr().println("weir: " + (ex.getCause() instanceof UnitlessDurationException unitless && ex.getArgSpec() instanceof OptionSpec option
                ? option.longestName() + " " + ex.getValue() + ": " + unitless.reason() : ex.getMessage()));
            cmd.getErr().println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for the flags.");
            return USAGE;
        });
        commandLine.setExecutionExceptionHandler((ex, cmd, parsed) ->
        {
            if (ex instanceof DeliveryPendingException pending)
            {
                if (!pending.reported())
                {
                    cmd.getErr().println("weir: " + ex.getMessage());
                }
                return DELIVERY_PENDING;
            }
            if (ex instanceof BadInputException || ex instanceof JournalRefusedException || ex instanceof CheckpointMismatchException
                || ex instanceof ResumeAfterEndException || ex instanceof JvmFlagsMissingException || ex instanceof OffsetUnavailableException
                || ex instanceof NewerFormatException || ex instanceof ExportRefusedException || ex instanceof CsvInputException
                || ex instanceof ReplayRefusedException)
            {
                cmd.getErr().println("weir: " + ex.getMessage());
                return USAGE;
            }
            cmd.getErr().println("weir: failed: " + ex);
            Throwable cause = ex.getCause();
            while (cause != null)
            {
                cmd.getErr().println("  caused by: " + cause);
                cause = cause.getCause();
            }
            return 1;
        });
        try
        {
            return commandLine.execute(args);
        }
        catch (final InternalError ex)
        {
            // what a SIGBUS in a memory-mapped file becomes in Java: a page of a journal file that could not be
            // allocated (a full disk, that the journal's reserve did not catch) or read
            System.err.println("weir: failed: a journal file's memory mapping faulted (is its disk full?): " + ex);
            return 1;
        }
    }
}
