package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.Pipeline;
import dev.weir.engine.Weir;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Events appended by other appenders between two ingests of a file are no lines of that file (issue 12,
 * defect 9): the next ingest of the grown file takes every new line.
 */
class ForeignAppenderTest
{
    @TempDir
    Path dir;

    @Test
    void eventsAppendedThroughTheJavaApiBetweenTwoIngestsDoNotCountAsLinesOfTheFile() throws Exception
    {
        final Path input = dir.resolve("events.csv");
        final Path journal = dir.resolve("journal");
        Files.write(input, List.of("event_id,event_time,key,value", "1,1000,a,1", "bad", "2,2000,a,2"));
        assertEquals(0, Cli.run("ingest", "--input", input.toString(), "--journal", journal.toString()).exit());

        try (EventJournal api = EventJournal.openOrCreate(journal))
        {
            api.append(100, 1500, "api", 10);
            api.append(101, 1600, "api", 11);
        }
        try (Pipeline follower = Weir.pipeline().journal(journal).window(TumblingWindows.of(10_000)).build().start())
        {
            final long offset = follower.append(102, 1700, "api", 12);
            assertTrue(follower.awaitOffset(offset, 60, TimeUnit.SECONDS));
        }

        Files.write(input, List.of("3,3000,b,3", "4,4000,b,4"), StandardOpenOption.APPEND);
        final Cli grown = Cli.run("ingest", "--input", input.toString(), "--journal", journal.toString());
        assertEquals(0, grown.exit(), grown.out() + grown.err());
        assertTrue(grown.out().contains("2 events appended"), grown.out());
        assertTrue(grown.out().contains("3 lines were already ingested"), grown.out());
        assertEquals(List.of("1,1000,a,1", "2,2000,a,2", "100,1500,api,10", "101,1600,api,11", "102,1700,api,12", "3,3000,b,3", "4,4000,b,4"),
            JournalContents.events(journal));

        final Cli again = Cli.run("ingest", "--input", input.toString(), "--journal", journal.toString());
        assertTrue(again.out().contains("0 events appended"), again.out());
    }
}
