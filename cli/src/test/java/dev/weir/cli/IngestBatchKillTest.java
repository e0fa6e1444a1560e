package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.weir.journal.IngestConsumer;
import dev.weir.journal.IngestLog;
import dev.weir.journal.JournalDirectory;
import dev.weir.testsupport.KillHarness;

/**
 * A {@code weir ingest} killed with SIGKILL while it appends batched documents (marker version 5) loses only the events
 * of the batch it had not written yet (a whole document or none), and the next ingest of the same file resumes after
 * the last line recorded: in the end every line of the file is recorded exactly once, in order, as an event or a
 * rejected line. Each round kills the child once the journal holds a different number of events, so the kills land
 * at many places in the file; every kill lands with a batch pending (the ingest flushes only when a batch fills or
 * it reads more input).
 */
@Tag("slow")
class IngestBatchKillTest
{
    private static final int EVENTS = 400_000;
    private static final int ROUNDS = 5;

    @TempDir
    Path dir;

    @Test
    void aKilledIngestOfBatchedDocumentsResumesWithNothingLostOrDoubled() throws Exception
    {
        final Path input = dir.resolve("events.csv");
        KillHarness.writeEvents(input, EVENTS, 5_000, 34);
        final long lines = Files.lines(input).count() - 1;
        final Path journal = dir.resolve("journal");
        final String[] args = {"ingest", "--input", input.toString(), "--journal", journal.toString(),
            "--rejected", dir.resolve("rejected.csv").toString()};
        int killed = 0;
        for (int round = 0; round < ROUNDS; round++)
        {
            final long before = KillHarness.ingestedLines(journal);
            final long killAt = before + 1 + (round * 7_919L + 1_000) % 40_000;
            final Process child = KillHarness.startChild(args, dir.resolve("ingest-" + round + ".log"));
            while (child.isAlive() && KillHarness.ingestedLines(journal) < killAt)
            {
                child.waitFor(5, TimeUnit.MILLISECONDS);
            }
            if (child.isAlive())
            {
                child.destroyForcibly();
                killed++;
            }
            assertTrue(child.waitFor(120, TimeUnit.SECONDS), "the child ended");
            checkEveryLineOnceInOrder(journal, -1);
        }
        assertTrue(killed >= 1, "at least one ingest was killed inside the file");
        assertTrue(JournalDirectory.open(journal).offsets().batched(), "a journal of batched documents");
        final Process last = KillHarness.startChild(args, dir.resolve("ingest-last.log"));
        assertTrue(last.waitFor(120, TimeUnit.SECONDS), "the last ingest ended");
        assertEquals(0, last.exitValue(), Files.readString(dir.resolve("ingest-last.log")));
        checkEveryLineOnceInOrder(journal, lines);
        assertEquals(EVENTS, KillHarness.ingestedLines(journal), "every event once");
    }

    /** Every line recorded (events and rejected lines) once, from line 2 on without a gap; {@code lines} of them if >= 0. */
    private static void checkEveryLineOnceInOrder(final Path journal, final long lines)
    {
        final List<Long> recorded = new ArrayList<>();
        IngestLog.scan(JournalDirectory.open(journal), new IngestConsumer()
        {
            @Override
            public void onIngestStart(final long offset, final String source, final long firstLine, final boolean linesTagged)
            {
                assertEquals(recorded.size() + 2L, firstLine, "an ingest resumes after the last line recorded");
            }

            @Override
            public void onRejected(final long offset, final long line, final String reason, final String content)
            {
                recorded.add(line);
            }

            @Override
            public void onEvent(final long offset, final long line)
            {
                recorded.add(line);
            }
        });
        for (int i = 0; i < recorded.size(); i++)
        {
            assertEquals(i + 2L, recorded.get(i), "line " + (i + 2) + " recorded once, in order");
        }
        if (lines >= 0)
        {
            assertEquals(lines, recorded.size(), "every line");
        }
    }
}
