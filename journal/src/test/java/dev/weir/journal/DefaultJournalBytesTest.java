package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A default-schema journal's event documents are the bytes they were before journals had schemas: the
 * same appends give documents whose SHA-256 was recorded from the code before the change (commit
 * 18b1559), through the key API and through the row API ({@link EventJournal#row()}).
 */
class DefaultJournalBytesTest
{
    /** SHA-256 of {@link #appendThroughTheKeyApi}'s documents, recorded with the code of commit 18b1559. */
    static final String RECORDED = "ea5c81362799b445d850b026026018748c8a1a7a4ec6192b289dda897cc023d9";

    @TempDir
    Path dir;

    @Test
    void theKeyApiWritesTheDocumentsItWroteBeforeSchemas()
    {
        try (EventJournal journal = EventJournal.openOrCreate(dir))
        {
            appendThroughTheKeyApi(journal);
        }
        assertEquals(RECORDED, documentsSha256(JournalDirectory.open(dir)));
    }

    @Test
    void theRowApiWritesTheSameDocuments()
    {
        try (EventJournal journal = EventJournal.openOrCreate(dir))
        {
            appendThroughTheRowApi(journal);
        }
        assertEquals(RECORDED, documentsSha256(JournalDirectory.open(dir)));
    }

    /** The appends of {@link #appendThroughTheKeyApi}, as rows of {@code key:string,value:long}. */
    static void appendThroughTheRowApi(final EventJournal journal)
    {
        journal.appendIngestStart("input.csv", 1);
        final EventRow row = journal.row();
        for (int i = 0; i < 2_000; i++)
        {
            final String key = "k-" + (i * 7 % 301);
            if (i % 500 == 13)
            {
                journal.appendRejected(i + 1, "bad value", "x,y,z");
                continue;
            }
            final long value = i % 3 == 0 ? i * 31L - 999 : i % 3 == 1 ? Long.MIN_VALUE + i : Long.MAX_VALUE - i;
            row.eventId(i).eventTime(1_000L + i).setString(0, journal.stringId(0, key)).setLong(1, value);
            if (i % 3 == 0)
            {
                journal.appendIngested(row, i + 1, i == 1_998 ? 17 : -1);
            }
            else
            {
                journal.append(row);
            }
        }
    }

    static void appendThroughTheKeyApi(final EventJournal journal)
    {
        journal.appendIngestStart("input.csv", 1);
        for (int i = 0; i < 2_000; i++)
        {
            final String key = "k-" + (i * 7 % 301);
            if (i % 500 == 13)
            {
                journal.appendRejected(i + 1, "bad value", "x,y,z");
            }
            else if (i % 3 == 0)
            {
                journal.appendIngested(i + 1, i, 1_000L + i, key, i * 31L - 999, i == 1_998 ? 17 : -1);
            }
            else if (i % 3 == 1)
            {
                journal.append(i, 1_000L + i, key, Long.MIN_VALUE + i);
            }
            else
            {
                journal.append(i, 1_000L + i, journal.keyId(key), Long.MAX_VALUE - i);
            }
        }
    }

    static String documentsSha256(final JournalDirectory directory)
    {
        final MessageDigest sha;
        try
        {
            sha = MessageDigest.getInstance("SHA-256");
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new AssertionError(ex);
        }
        try (SingleChronicleQueue queue = JournalQueues.open(directory, directory.eventsQueue());
             ExcerptTailer tailer = queue.createTailer())
        {
            while (true)
            {
                try (DocumentContext dc = tailer.readingDocument())
                {
                    if (!dc.isPresent())
                    {
                        break;
                    }
                    final Bytes<?> bytes = dc.wire().bytes();
                    final byte[] document = new byte[(int)bytes.readRemaining()];
                    bytes.read(document);
                    sha.update((byte)document.length);
                    sha.update((byte)(document.length >> 8));
                    sha.update(document);
                }
            }
        }
        return HexFormat.of().formatHex(sha.digest());
    }
}
