package dev.weir.csv;

import java.nio.file.Files;
import java.nio.file.Path;

import dev.weir.journal.EventJournal;
import dev.weir.journal.schema.JournalSchema;

/**
 * The in-process costs of {@code weir ingest} per line (issue 18), not a test: reading lines from the input
 * ({@link InputLines}), reading and parsing them from their bytes ({@link CsvLineParser}, its strings learned), the
 * whole ingest into a new journal ({@link CsvIngest}, so the append's cost is the difference), and the whole ingest
 * reading every line as text (as before issue 18); three rounds, the first one a warm-up.
 * <p>
 * {@code java $(cat cli/target/weir.jvmopts) -cp csv/target/test-classes:cli/target/weir.jar dev.weir.csv.IngestProbe FILE WORK_DIR [COLUMNS]}
 * (FILE from {@code benchmarks/ingest-csv.py}; WORK_DIR empty, it receives the journals).
 */
public final class IngestProbe
{
    private IngestProbe()
    {
    }

    /**
     * @param args the CSV, a work directory, and the columns if not the default ones.
     * @throws Exception if anything fails.
     */
    public static void main(final String[] args) throws Exception
    {
        final Path file = Path.of(args[0]);
        final JournalSchema schema = args.length > 2 ? JournalSchema.parse(args[2]) : JournalSchema.DEFAULT;
        final Path work = Path.of(args[1]);
        for (int round = 0; round < 3; round++)
        {
            long t0 = System.nanoTime();
            long n = 0;
            try (InputLines in = new InputLines(Files.newInputStream(file)))
            {
                in.next();
                while (in.next())
                {
                    n++;
                }
            }
            final double read = (System.nanoTime() - t0) / (double)n;
            final Path scratch = work.resolve("scratch-" + round);
            long parsed = 0;
            double parse;
            try (EventJournal journal = EventJournal.openOrCreate(scratch, schema))
            {
                final CsvLineParser parser = new CsvLineParser(schema);
                long line = 1;
                try (InputLines in = new InputLines(Files.newInputStream(file)))
                {
                    in.next();
                    while (in.next())
                    {
                        if (parser.parse(in.bytes(), in.start(), in.start() + in.kept()) == null)
                        {
                            parser.append(journal, ++line, -1); // learns the strings
                        }
                    }
                }
                t0 = System.nanoTime();
                try (InputLines in = new InputLines(Files.newInputStream(file)))
                {
                    in.next();
                    while (in.next())
                    {
                        if (parser.parse(in.bytes(), in.start(), in.start() + in.kept()) == null)
                        {
                            parsed++;
                        }
                    }
                }
                parse = (System.nanoTime() - t0) / (double)n;
            }
            t0 = System.nanoTime();
            final CsvIngest.Summary s;
            try (EventJournal journal = EventJournal.openOrCreate(work.resolve("journal-" + round), schema))
            {
                s = CsvIngest.into(journal).rejected(work.resolve("rejected-" + round + ".csv")).build().ingest(file);
            }
            final double ingest = (System.nanoTime() - t0) / (double)n;
            t0 = System.nanoTime();
            try (EventJournal journal = EventJournal.openOrCreate(work.resolve("strings-" + round), schema))
            {
                CsvIngest.into(journal).rejected(work.resolve("rejected-s" + round + ".csv")).textOnly().build().ingest(file);
            }
            final double strings = (System.nanoTime() - t0) / (double)n;
            System.out.printf("round %d: %d lines (%d parsed as bytes, %d ingested): read %.1f ns/line, read+parse %.1f ns/line, "
                + "whole ingest %.1f ns/line (%.2f M lines/s), the String way %.1f ns/line (%.2f M lines/s)%n",
                round, n, parsed, s.ingested(), read, parse, ingest, 1e3 / ingest, strings, 1e3 / strings);
        }
    }
}
