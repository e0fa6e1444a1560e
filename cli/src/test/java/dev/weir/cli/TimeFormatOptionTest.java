package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import dev.weir.testsupport.JournalRows;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --time-format iso} on {@code weir run} and {@code weir replay}: window starts and ends in the results CSV and
 * JSON Lines partitions, and late events' times, printed as ISO-8601 UTC; the journal keeps epoch milliseconds; the
 * events CSV's times may be ISO-8601 instants with an offset; a bad value is refused with exit 2.
 */
class TimeFormatOptionTest
{
    @TempDir
    Path dir;

    @Test
    void runAndReplayPrintInstantsAsIsoWhileTheJournalKeepsMilliseconds() throws IOException
    {
        final Path input = write("events.csv", "event_id,event_time,key,value",
            "1,2026-12-02T09:30:00Z,a,5",
            "2,2026-12-02T09:30:04.250+00:00,a,7",
            "3,2026-12-02T10:30:12+01:00,b,1",
            "4,1796203801500,a,100");
        final Path journal = dir.resolve("journal");
        final Cli run = Cli.run("run", "--input", input.toString(), "--journal", journal.toString(), "--window", "tumbling:10s", "--late", "side",
            "--time-format", "iso", "--results", dir.resolve("results.csv").toString(), "--late-output", dir.resolve("late.csv").toString());
        assertEquals(0, run.exit(), run.out() + run.err());
        assertEquals(List.of("1|1796203800000|a|5", "2|1796203804250|a|7", "3|1796203812000|b|1", "4|1796203801500|a|100"),
            JournalRows.events(journal), "the journal keeps epoch milliseconds");
        assertEquals(List.of("window_start,window_end,key,count,sum,min,max,version",
            "2026-12-02T09:30:00Z,2026-12-02T09:30:10Z,a,2,12,5,7,0",
            "2026-12-02T09:30:10Z,2026-12-02T09:30:20Z,b,1,1,1,1,0"), Files.readAllLines(dir.resolve("results.csv")));
        assertEquals(List.of("event_id,event_time,key,value", "4,2026-12-02T09:30:01.500Z,a,100"), Files.readAllLines(dir.resolve("late.csv")));

        final Path out = dir.resolve("out");
        final Cli replay = Cli.run("replay", "--journal", journal.toString(), "--window", "tumbling:10s", "--time-format", "iso",
            "--output-dir", out.toString(), "--format", "jsonl");
        assertEquals(0, replay.exit(), replay.out() + replay.err());
        assertEquals(List.of("{\"window_start\":\"2026-12-02T09:30:00Z\",\"window_end\":\"2026-12-02T09:30:10Z\",\"key\":\"a\",\"count\":2,\"sum\":12,"
                + "\"min\":5,\"max\":7,\"version\":0}",
            "{\"window_start\":\"2026-12-02T09:30:10Z\",\"window_end\":\"2026-12-02T09:30:20Z\",\"key\":\"b\",\"count\":1,\"sum\":1,"
                + "\"min\":1,\"max\":1,\"version\":0}"),
            Files.readAllLines(out.resolve("date=2026-12-02").resolve("results.jsonl")), "date partitions unchanged: by the UTC date");

        final Cli epoch = Cli.run("replay", "--journal", journal.toString(), "--window", "tumbling:10s", "--results", dir.resolve("epoch.csv").toString());
        assertEquals(0, epoch.exit(), epoch.out() + epoch.err());
        assertEquals("1796203800000,1796203810000,a,2,12,5,7,0", Files.readAllLines(dir.resolve("epoch.csv")).get(1), "epoch by default");
    }

    @Test
    void anUnknownTimeFormatIsRefused() throws IOException
    {
        final Path input = write("events.csv", "event_id,event_time,key,value", "1,1000,a,5");
        final Cli run = Cli.run("run", "--input", input.toString(), "--window", "tumbling:10s", "--time-format", "utc",
            "--results", dir.resolve("results.csv").toString());
        assertEquals(2, run.exit(), run.out() + run.err());
        assertTrue(run.err().contains("Invalid value for option '--time-format': expected one of [epoch, iso]"),
            run.err());
    }

    private Path write(final String name, final String... lines) throws IOException
    {
        final Path file = dir.resolve(name);
        Files.write(file, List.of(lines), StandardCharsets.UTF_8);
        return file;
    }
}
