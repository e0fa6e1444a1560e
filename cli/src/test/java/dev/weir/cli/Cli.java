package dev.weir.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Runs the {@code weir} command line in this JVM and captures what it prints.
 *
 * @param exit the exit code.
 * @param out  standard output.
 * @param err  standard error.
 */
record Cli(int exit, String out, String err)
{
    static synchronized Cli run(final String... args)
    {
        final PrintStream oldOut = System.out;
        final PrintStream oldErr = System.err;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8))
        {
            System.setOut(o);
            System.setErr(e);
            final int exit = WeirCommand.execute(args);
            return new Cli(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        }
        finally
        {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    /**
     * @return the lines printed on standard error that are not log output.
     */
    long errorLines()
    {
        return err.lines().filter(l -> !l.isBlank() && !l.startsWith("[")).count();
    }
}
