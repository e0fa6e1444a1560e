package dev.weir.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * The benchmarks jar's entry point: JMH's own command line, plus the JVM flags Chronicle Queue needs
 * appended to every fork (they come from the parent pom, filtered into {@code weir.jvmopts} at build
 * time, because JMH forks do not inherit a jar manifest's {@code Add-Opens}); or, with {@code --short}
 * as the first argument, the short suite ({@link ShortSuite}, what {@code weir bench} runs).
 */
public final class BenchRunner
{
    private BenchRunner()
    {
    }

    /**
     * @param args JMH command-line arguments, e.g. {@code EndToEnd -prof gc}, or {@code --short} for the
     *             short suite.
     * @throws RunnerException            if JMH fails.
     * @throws CommandLineOptionException if the arguments are not JMH's.
     * @throws IOException                if the flags resource cannot be read.
     * @throws InterruptedException       if the short suite is interrupted.
     */
    public static void main(final String[] args) throws RunnerException, CommandLineOptionException, IOException, InterruptedException
    {
        if (args.length > 0 && "--short".equals(args[0]))
        {
            ShortSuite.main(Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        final CommandLineOptions cli = new CommandLineOptions(args);
        // the builder's value replaces the command line's: keep both
        final List<String> append = new ArrayList<>(cli.getJvmArgsAppend().orElse(List.of()));
        append.addAll(List.of(jvmFlags()));
        final Options options = new OptionsBuilder().parent(cli).jvmArgsAppend(append.toArray(new String[0])).build();
        new Runner(options).run();
    }

    static String[] jvmFlags() throws IOException
    {
        try (InputStream in = BenchRunner.class.getResourceAsStream("/weir.jvmopts"))
        {
            if (in == null)
            {
                throw new IOException("weir.jvmopts missing from the benchmarks jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim().split("\\s+");
        }
    }
}
