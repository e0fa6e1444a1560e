package dev.weir.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

import dev.weir.csv.SamplePayments;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalRollCycle;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code weir demo}: generates a realistic stream of card payments, runs it through a tumbling window
 * on the embedded default (a journal in a local directory, no server), and prints the summary and the
 * busiest card-windows. Re-running replaces the previous demo's files; a directory that is not a demo
 * directory is refused.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Generate card payments, run them through a 10 s tumbling window, show the busiest windows.")
final class DemoCommand implements Callable<Integer>
{
    private static final String MARKER = ".weir-demo";
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

    @Option(names = "--dir", paramLabel = "DIR", defaultValue = "weir-demo",
        description = "where the demo's payments, journal and results go (default: ${DEFAULT-VALUE})")
    Path dir;

    @Option(names = "--payments", paramLabel = "N", defaultValue = "300000", description = "payments to generate (default: ${DEFAULT-VALUE})")
    int payments;

    @Option(names = "--cards", paramLabel = "N", defaultValue = "4000", description = "distinct cards (default: ${DEFAULT-VALUE})")
    int cards;

    @Option(names = "--roll-cycle", paramLabel = "minutely|hourly|daily", converter = RollCycles.class,
        description = RollCycles.DESCRIPTION)
    JournalRollCycle rollCycle;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "42", description = "random seed (default: ${DEFAULT-VALUE})")
    long seed;

    @Override
    public Integer call()
    {
        if (payments < 1 || cards < 1 || cards > 9999)
        {
            throw new BadInputException("--payments must be >= 1 and --cards between 1 and 9999");
        }
        prepare();
        final Path csv = dir.resolve("payments.csv");
        System.out.printf("Generating %,d card payments over %,d cards into %s ...%n", payments, cards, csv);
        new SamplePayments(payments, cards, seed).writeTo(csv);

        final WindowOptions window = new WindowOptions();
        window.window = TumblingWindows.of(Duration.ofSeconds(10));
        window.outOfOrderness = 5_000;
        window.allowedLateness = 0;
        window.latePolicy = LatePolicy.DROP;

        final Path results = dir.resolve("results.csv");
        final RunJob job = RunJob.builder().input(csv).results(results).journal(dir.resolve("journal")).rollCycle(rollCycle)
            .window(window).build();
        System.out.println();
        new RunExecution(job).execute(System.out);
        System.out.println();
        printBusiest(results, 8);
        System.out.printf("%nEvery row is in %s; rejected lines in %s.%n", results, job.rejectedFile());
        return 0;
    }

    private void prepare()
    {
        try
        {
            if (Files.isDirectory(dir) && !Files.exists(dir.resolve(MARKER)))
            {
                try (Stream<Path> entries = Files.list(dir))
                {
                    if (entries.findAny().isPresent())
                    {
                        throw new BadInputException(dir + " exists and is not a Weir demo directory; choose another with --dir");
                    }
                }
            }
            final Path journal = dir.resolve("journal");
            if (Files.isDirectory(journal))
            {
                JournalDirectory.open(journal); // refuse anything that is not a journal, before deleting it
                try (Stream<Path> paths = Files.walk(journal))
                {
                    paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(MARKER), "weir demo directory: its contents are replaced by every 'weir demo'\n");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot prepare " + dir, ex);
        }
    }

    private static void printBusiest(final Path results, final int rows)
    {
        final List<String[]> all = new ArrayList<>();
        try (Stream<String> lines = Files.lines(results, StandardCharsets.UTF_8))
        {
            lines.skip(1).forEach(line -> all.add(line.split(",")));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + results, ex);
        }
        all.sort(Comparator.comparingLong((String[] r) -> Long.parseLong(r[4])).reversed().thenComparing(r -> r[2]));
        System.out.println("Busiest card-windows by spend (10 s tumbling windows, UTC):");
        System.out.printf("  %-19s  %-9s  %8s  %12s  %10s  %10s%n", "window", "card", "payments", "total", "smallest", "largest");
        for (int i = 0; i < Math.min(rows, all.size()); i++)
        {
            final String[] r = all.get(i);
            System.out.printf("  %s-%s  %-9s  %8s  %12s  %10s  %10s%n",
                CLOCK.format(Instant.ofEpochMilli(Long.parseLong(r[0]))), CLOCK.format(Instant.ofEpochMilli(Long.parseLong(r[1]))),
                r[2], r[3], money(r[4]), money(r[5]), money(r[6]));
        }
    }

    private static String money(final String cents)
    {
        final long c = Long.parseLong(cents);
        return String.format("%,d.%02d", c / 100, Math.abs(c % 100));
    }
}
