package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.weir.csv.CsvLineParser;

/**
 * A journal that only named pipelines have processed, as a service team runs one: 100 events, the last 41 of
 * them far behind the watermark. Pipeline {@code spend} (tumbling 1 s, no lateness) drops those 41 as late;
 * pipeline {@code fees} (allowed lateness 2 min) takes every event. The default pipeline never ran. Stateless.
 */
final class LateSpendJournal
{
    /** Events in the journal. */
    static final int EVENTS = 100;
    /** Of those, events late for {@code spend}. */
    static final int LATE = 41;

    private LateSpendJournal()
    {
    }

    /**
     * @param dir a directory to create the journal and its CSV files in.
     * @return the journal.
     */
    static Path create(final Path dir) throws IOException
    {
        final List<String> lines = new ArrayList<>(List.of(CsvLineParser.DEFAULT_HEADER));
        for (int i = 1; i <= EVENTS; i++)
        {
            lines.add(i + "," + (i <= EVENTS - LATE ? i * 1_000L : 5) + ",k" + i % 3 + "," + i);
        }
        final Path input = Files.write(dir.resolve("payments.csv"), lines);
        final Path journal = dir.resolve("journal");
        run("ingest", "--input", input.toString(), "--journal", journal.toString());
        run("run", "--journal", journal.toString(), "--pipeline", "spend", "--window", "tumbling:1s", "--results", dir.resolve("spend.csv").toString());
        run("run", "--journal", journal.toString(), "--pipeline", "fees", "--window", "tumbling:1s", "--allowed-lateness", "2m",
            "--results", dir.resolve("fees.csv").toString());
        return journal;
    }

    private static void run(final String... args)
    {
        final Cli cli = Cli.run(args);
        assertEquals(0, cli.exit(), String.join(" ", args) + "\n" + cli.out() + cli.err());
    }
}
