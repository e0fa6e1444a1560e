package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.weir.journal.codec.DocumentType;
import dev.weir.journal.codec.ResultFields;
import dev.weir.journal.codec.ResultKind;

/**
 * A committed journal of marker version 5 whose output journal holds single and batched documents
 * ({@code src/test/resources/fixtures/batched-outputs-v5.tar.gz}, written once by {@link #write} and never changed): it
 * is read back output by output, at the pinned positions, with the pinned fields
 * ({@code batched-outputs-v5.expected}); the cursor resumes after every one of those positions; its documents are, in
 * order, a single late event, a batch of five (each kind of result, one with an aggregate, a late event), a single result
 * with three aggregates, a full batch of 64 and a batch of two. Every later Weir must read it so.
 * <p>
 * Written with {@code -Dweir.fixture.write=true} when the files are missing (then commit them).
 */
class BatchedOutputsFixtureTest
{
    static final Path FIXTURE = Path.of("src/test/resources/fixtures/batched-outputs-v5.tar.gz");
    static final Path EXPECTED = Path.of("src/test/resources/fixtures/batched-outputs-v5.expected");

    @TempDir
    Path dir;

    @Test
    void aCommittedJournalOfBatchedOutputsReadsAsPinned() throws Exception
    {
        if (!Files.exists(FIXTURE) && Boolean.getBoolean("weir.fixture.write"))
        {
            write(dir.resolve("written"));
        }
        assertTrue(Files.exists(FIXTURE), "no fixture " + FIXTURE.toAbsolutePath() + ": write it with -Dweir.fixture.write=true and commit it");
        final Process tar = new ProcessBuilder("tar", "-xzf", FIXTURE.toAbsolutePath().toString(), "-C", dir.toString()).inheritIO().start();
        assertEquals(0, tar.waitFor(), "tar");
        final JournalDirectory journal = JournalDirectory.open(dir.resolve("journal"));
        assertEquals(JournalDirectory.FORMAT_VERSION_BATCHED, journal.formatVersion());
        assertEquals(JournalOffsets.SLOTTED, journal.offsets());

        final List<String> expected = Files.readAllLines(EXPECTED, StandardCharsets.UTF_8);
        final List<String> read = new ArrayList<>();
        final List<Long> positions = new ArrayList<>();
        try (OutputJournal output = OutputJournal.open(journal))
        {
            output.seekAfter(OutputJournal.NONE);
            final String[] text = new String[1];
            while (output.next(stored -> text[0] = BatchedOutputJournalTest.text(stored)) != 0)
            {
                positions.add(output.lastReadPosition());
                read.add(output.lastReadPosition() + " " + text[0]);
            }
            assertEquals(expected, read, "every output at its pinned position");
            assertEquals((long)positions.get(positions.size() - 1), output.lastPosition());
            final List<String> all = new ArrayList<>();
            assertEquals(expected.size(), output.readAll(stored -> all.add(BatchedOutputJournalTest.text(stored))));
            for (int i = 0; i < expected.size(); i++)
            {
                assertEquals(expected.get(i), positions.get(i) + " " + all.get(i));
            }
            for (int i = 0; i < positions.size(); i++)
            {
                output.seekAfter(positions.get(i));
                final int type = output.next(stored -> { });
                assertEquals(i + 1 < positions.size() ? positions.get(i + 1) : positions.get(i), output.lastReadPosition());
                assertEquals(i + 1 < positions.size(), type != 0, "after output " + i);
            }
        }
        assertEquals(List.of((int)DocumentType.LATE_EVENT, (int)DocumentType.RESULT_BATCH, (int)DocumentType.RESULT,
            (int)DocumentType.RESULT_BATCH, (int)DocumentType.RESULT_BATCH), documentTypes(journal));
    }

    private static List<Integer> documentTypes(final JournalDirectory journal)
    {
        final List<Integer> types = new ArrayList<>();
        try (SingleChronicleQueue queue = JournalQueues.open(journal, journal.resultsQueue()); ExcerptTailer tailer = queue.createTailer())
        {
            while (true)
            {
                try (DocumentContext dc = tailer.readingDocument())
                {
                    if (!dc.isPresent())
                    {
                        return types;
                    }
                    types.add(DocumentType.peek(dc.wire().bytes()));
                }
            }
        }
    }

    /** Write the fixture and its expected outputs (once; the files are then committed and never changed). */
    private static void write(final Path root) throws Exception
    {
        final JournalDirectory journal = BatchedJournals.create(root.resolve("journal"));
        try (OutputJournal output = OutputJournal.openForAppend(journal))
        {
            output.appendLate(OutputJournalTest.lateFields(1, 1_000, 3, 42, 7));
            output.flush();
            output.appendResult(new Fields(ResultKind.FINAL, 0, 1, 0, 10), 0);
            output.appendResult(new Fields(ResultKind.FINAL, 10_000, 2, 1, 11, 99), 1);
            output.appendResult(new Fields(ResultKind.UPDATE, 20_000, 3, 0, 12), 0);
            output.appendResult(new Fields(ResultKind.EARLY, 30_000, 4, 0, 13, -5), 1);
            output.appendLate(OutputJournalTest.lateFields(2, 500, 5, -1, 14));
            output.flush();
            output.appendResult(new Fields(ResultKind.FINAL, 40_000, 6, 2, 15, 1, -2, Long.MAX_VALUE), 3);
            output.flush();
            for (int i = 0; i < 66; i++)
            {
                output.appendResult(new Fields(ResultKind.FINAL, 50_000 + i * 1_000L, 7 + i % 5, 0, 16 + i), 0);
            }
            output.flush();
        }
        final List<String> expected = new ArrayList<>();
        try (OutputJournal output = OutputJournal.open(journal))
        {
            output.seekAfter(OutputJournal.NONE);
            final String[] text = new String[1];
            while (output.next(stored -> text[0] = BatchedOutputJournalTest.text(stored)) != 0)
            {
                expected.add(output.lastReadPosition() + " " + text[0]);
            }
        }
        Files.createDirectories(FIXTURE.getParent());
        Files.write(EXPECTED, expected, StandardCharsets.UTF_8);
        final Process tar = new ProcessBuilder("tar", "--sparse", "--sort=name", "--owner=0", "--group=0", "--numeric-owner", "-czf",
            FIXTURE.toAbsolutePath().toString(), "-C", root.toString(), "journal").inheritIO().start();
        assertEquals(0, tar.waitFor(), "tar");
    }

    /** A result's fields, with any number of aggregates. */
    private record Fields(ResultKind kind, long windowStart, int keyId, int version, long sourceOffset, long... aggregates) implements ResultFields
    {
        @Override
        public long windowEnd()
        {
            return windowStart + 10_000;
        }

        @Override
        public long count()
        {
            return 3 + keyId;
        }

        @Override
        public long sum()
        {
            return -42 * keyId;
        }

        @Override
        public long min()
        {
            return -7;
        }

        @Override
        public long max()
        {
            return 1_000 + keyId;
        }

        @Override
        public long aggregate()
        {
            return aggregates.length == 0 ? 0 : aggregates[0];
        }

        @Override
        public int aggregateCount()
        {
            return aggregates.length;
        }

        @Override
        public long aggregate(final int index)
        {
            return aggregates[index];
        }
    }
}
